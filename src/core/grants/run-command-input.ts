/** The `run_command` tool's name, and the argv its input stands for. */

export const RUN_COMMAND = "run_command";

/** The argv a parsed `{command, args}` stands for; undefined unless it is exactly that shape. */
export function commandArgv(input: Readonly<Record<string, unknown>>): string[] | undefined {
  const { command, args } = input;
  const keys = Object.keys(input);
  if (keys.some((key) => key !== "command" && key !== "args")) return undefined;
  if (typeof command !== "string" || !/^[^\s\0/\\]+$/u.test(command)) return undefined;
  if (!Array.isArray(args)) return undefined;
  const strings: string[] = [];
  for (const arg of args as unknown[]) {
    if (typeof arg !== "string" || arg.includes("\0")) return undefined;
    strings.push(arg);
  }
  return [command, ...strings];
}

export function sameArgv(left: readonly string[], right: readonly string[]): boolean {
  return left.length === right.length && left.every((word, index) => word === right[index]);
}
