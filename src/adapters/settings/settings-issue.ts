/**
 * One line for the first thing wrong in a settings file: the field, and what it takes. zod's own
 * words for a wrong choice ("Invalid input") do not say what the choices are. An unknown field
 * inside a rule or a server is named where it is (`rules[0]`), with the fields known there.
 */
import { z } from "zod";
import { oneLine } from "../../core/common/one-line.js";

/** `schema`: the whole file's, for the fields known where an unknown one was found. */
export function describeSettingsIssue(
  issue: z.core.$ZodIssue | undefined,
  schema: z.ZodType,
): string {
  if (issue === undefined) return "invalid";
  if (issue.code === "unrecognized_keys") {
    const where = placeOf(issue.path);
    const known = fieldsAt(schema, issue.path);
    const unknown = `unknown field ${issue.keys.join(", ")}`;
    const listed = known.length === 0 ? "" : ` (known: ${known.join(", ")})`;
    return where === "" ? `${unknown}${listed}` : `${where}: ${unknown}${listed}`;
  }
  const field = issue.path.join(".");
  if (field === "") return `must be a JSON object of settings (${issue.message})`;
  // A record's key, such as a server's name: zod says only "Invalid key in record".
  if (issue.code === "invalid_key") {
    const why = issue.issues[0]?.message ?? issue.message;
    return `field ${field}: ${why}`;
  }
  if (issue.code === "invalid_value") {
    return `field ${field}: must be ${oneOf(issue.values.map((value) => JSON.stringify(value)))}, got ${oneLine(JSON.stringify(issue.input), 40)}`;
  }
  return `field ${field}: ${issue.message}`;
}

/** `rules[0]`, `mcpServers.docs`; `""` for the file's top level. */
function placeOf(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) =>
      typeof key === "number" ? `[${String(key)}]` : `${index === 0 ? "" : "."}${String(key)}`,
    )
    .join("");
}

/** The fields of the object `schema` takes at `path`, in the schema's order; none if unknown. */
function fieldsAt(schema: z.ZodType, path: readonly PropertyKey[]): string[] {
  const objects = objectsAt(schema, path);
  return [...new Set(objects.flatMap((object) => Object.keys(object.shape)))];
}

function objectsAt(schema: z.ZodType, path: readonly PropertyKey[]): z.ZodObject[] {
  const inner = unwrapped(schema);
  if (inner instanceof z.ZodUnion) {
    return inner.options.flatMap((option) => objectsAt(option as z.ZodType, path));
  }
  const [key, ...rest] = path;
  if (key === undefined) return inner instanceof z.ZodObject ? [inner] : [];
  if (inner instanceof z.ZodObject && typeof key === "string") {
    const field = (inner.shape as Record<string, z.ZodType | undefined>)[key];
    return field === undefined ? [] : objectsAt(field, rest);
  }
  if (inner instanceof z.ZodArray && typeof key === "number") {
    return objectsAt(inner.element as z.ZodType, rest);
  }
  if (inner instanceof z.ZodRecord) return objectsAt(inner.valueType as z.ZodType, rest);
  return [];
}

/** Past what only wraps a schema: optional, a default, a transform's input. */
function unwrapped(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodOptional || schema instanceof z.ZodDefault) {
    return unwrapped(schema.unwrap() as z.ZodType);
  }
  if (schema instanceof z.ZodPipe) return unwrapped(schema.in as z.ZodType);
  return schema;
}

/** `1, 2, 3 or 4`. */
function oneOf(choices: readonly string[]): string {
  if (choices.length < 2) return choices.join("");
  return `${choices.slice(0, -1).join(", ")} or ${choices.at(-1) ?? ""}`;
}
