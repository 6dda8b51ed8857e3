/**
 * The project's instructions as the system prompt carries them: every AGENTS.md found (see
 * instruction-paths.ts), each under a heading naming its file, at most INSTRUCTIONS_LIMIT_BYTES in
 * all with a notice where they were cut, and the SHA-256 of that text for the run journal. Read
 * once, when the run begins: a later change on disk reaches only a new run.
 */
import { createHash } from "node:crypto";
import { homeDirectory } from "../home/index.js";
import { INSTRUCTIONS_HEADING } from "../../core/context/context-report.js";
import { instructionPlaces, type PlaceOptions } from "./instruction-paths.js";
import { readInstructionFile } from "./read-instruction-file.js";

export const INSTRUCTIONS_LIMIT_BYTES = 32 * 1024;

export interface ProjectInstructions {
  /** The system prompt's section, or "" when no file was loaded. */
  readonly text: string;
  /** SHA-256 of `text` (hex), or undefined when it is empty. */
  readonly digest: string | undefined;
  /** The files loaded, in order (a cut one too). */
  readonly loaded: readonly string[];
  /** Files found but not read, and why. */
  readonly refused: readonly { readonly label: string; readonly reason: string }[];
  /** Labels of the files cut (or left out) by the size limit. */
  readonly cut: readonly string[];
}

export type LoadOptions = Omit<PlaceOptions, "home"> & { readonly home?: string };

export function loadProjectInstructions(options: LoadOptions): ProjectInstructions {
  const places = instructionPlaces({
    ...options,
    home: options.home ?? homeDirectory(options.env),
  });
  const loaded: string[] = [];
  const refused: { label: string; reason: string }[] = [];
  const cut: string[] = [];
  const sections: string[] = [];
  let room = INSTRUCTIONS_LIMIT_BYTES;
  for (const place of places) {
    const read = readInstructionFile(place);
    if (read.kind === "missing") continue;
    if (read.kind === "refused") {
      refused.push({ label: place.label, reason: read.reason });
      continue;
    }
    if (room <= 0) {
      cut.push(place.label);
      refused.push({
        label: place.label,
        reason: `the ${String(INSTRUCTIONS_LIMIT_BYTES / 1024)} KiB limit for instructions was reached`,
      });
      continue;
    }
    const body = read.text.trim();
    const kept = prefixOfBytes(body, room);
    room -= Buffer.byteLength(kept, "utf8");
    loaded.push(place.label);
    if (kept.length < body.length) {
      cut.push(place.label);
      room = 0;
      sections.push(
        `## ${place.label}\n\n${kept}\n\n[cut here: the instructions passed the ${String(INSTRUCTIONS_LIMIT_BYTES / 1024)} KiB limit; the rest of ${place.label} was not loaded]`,
      );
    } else {
      sections.push(`## ${place.label}\n\n${kept}`);
    }
  }
  if (sections.length === 0) return { text: "", digest: undefined, loaded, refused, cut };
  const text = [INSTRUCTIONS_HEADING, PREAMBLE, ...sections].join("\n\n");
  return { text, digest: sha256(text), loaded, refused, cut };
}

const PREAMBLE = [
  "The project's own instructions, from its AGENTS.md files (and the person's own), each under",
  "a heading naming its file. A later file is nearer to where the agent was started and wins",
  "where they disagree. The harness's permission rules still apply to every call.",
].join("\n");

/** The longest prefix of `text` that takes at most `bytes` in UTF-8, never half a character. */
function prefixOfBytes(text: string, bytes: number): string {
  if (Buffer.byteLength(text, "utf8") <= bytes) return text;
  let end = Math.min(text.length, bytes);
  while (end > 0 && Buffer.byteLength(text.slice(0, end), "utf8") > bytes) end -= 1;
  // Never split a surrogate pair.
  const last = text.charCodeAt(end - 1);
  if (last >= 0xd800 && last <= 0xdbff) end -= 1;
  return text.slice(0, end);
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}
