/**
 * The tutorial's `features/builtin-tools.ts`: the five tools P02 and P03 share (the shell and the
 * four file tools, each with its strict schema and its effect); P01 registers only the shell. Each
 * tool has its own file here; this module is where the composition root takes them from.
 */
export { createShellTool, type ShellToolOptions } from "./shell-tool.js";
export { createFileTools } from "./file-tools.js";

/** The five, in the order the model sees them. */
export const BUILTIN_TOOL_NAMES = Object.freeze([
  "shell",
  "read_file",
  "write_file",
  "edit_file",
  "glob",
] as const);
