/**
 * What a placeholder (absent-placeholders.ts) is made as, and how one is recognised again. Most are
 * an empty file. A `.git` is an empty directory instead: git takes an empty `.git` directory for no
 * repository and looks on upwards (a workspace inside a larger repository keeps working with it in
 * the sandbox), whereas an empty `.git` file is an invalid gitfile that stops git there.
 */
import { readdirSync } from "node:fs";
import path from "node:path";

/** Only git's own spelling counts here: the sandbox runs on Linux, where git looks for `.git`. */
const DIRECTORY_PLACEHOLDERS = new Set([".git"]);

export function isDirectoryPlaceholder(placeholder: string): boolean {
  return DIRECTORY_PLACEHOLDERS.has(path.basename(placeholder));
}

interface Shape {
  isFile(): boolean;
  isDirectory(): boolean;
  readonly size: number | bigint;
}

/**
 * Whether `stats` (of `placeholder`) has the shape the harness makes there: an empty file, or an
 * empty directory for a directory placeholder. Identity (device and inode) is the caller's check.
 */
export function hasPlaceholderShape(placeholder: string, stats: Shape): boolean {
  if (!isDirectoryPlaceholder(placeholder)) return stats.isFile() && Number(stats.size) === 0;
  if (!stats.isDirectory()) return false;
  try {
    return readdirSync(placeholder).length === 0;
  } catch {
    return false;
  }
}
