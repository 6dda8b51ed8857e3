/**
 * One line for the first thing wrong in a settings file: the field, and what it takes. zod's own
 * words for a wrong choice ("Invalid input") do not say what the choices are.
 */
import type { z } from "zod";
import { oneLine } from "../../core/common/one-line.js";

export function describeSettingsIssue(
  issue: z.core.$ZodIssue | undefined,
  known: readonly string[],
): string {
  if (issue === undefined) return "invalid";
  if (issue.code === "unrecognized_keys") {
    return `unknown field ${issue.keys.join(", ")} (known: ${known.join(", ")})`;
  }
  const field = issue.path.join(".");
  if (field === "") return `must be a JSON object of settings (${issue.message})`;
  if (issue.code === "invalid_value") {
    return `field ${field}: must be ${oneOf(issue.values.map((value) => JSON.stringify(value)))}, got ${oneLine(JSON.stringify(issue.input), 40)}`;
  }
  return `field ${field}: ${issue.message}`;
}

/** `1, 2, 3 or 4`. */
function oneOf(choices: readonly string[]): string {
  if (choices.length < 2) return choices.join("");
  return `${choices.slice(0, -1).join(", ")} or ${choices.at(-1) ?? ""}`;
}
