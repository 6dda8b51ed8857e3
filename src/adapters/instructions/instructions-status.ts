import type { ProjectInstructions } from "./project-instructions.js";

/**
 * For the run's first status line: which files were loaded, which were cut, and which were not
 * read and why; `undefined` when there were none at all.
 */
export function instructionsStatus(instructions: ProjectInstructions): string | undefined {
  const parts: string[] = [];
  if (instructions.loaded.length > 0) {
    const cut = new Set(instructions.cut);
    const names = instructions.loaded.map((label) => (cut.has(label) ? `${label} (cut)` : label));
    parts.push(`instructions ${names.join(", ")}`);
  }
  for (const { label, reason } of instructions.refused) {
    parts.push(`${label} not read: ${reason}`);
  }
  return parts.length === 0 ? undefined : parts.join(" · ");
}
