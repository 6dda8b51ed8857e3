/** The project's AGENTS.md files (and the person's own), read safely once at start. */
export {
  INSTRUCTIONS_LIMIT_BYTES,
  loadProjectInstructions,
  type LoadOptions,
  type ProjectInstructions,
} from "./project-instructions.js";
export { HUGE_INSTRUCTIONS_BYTES } from "./read-instruction-file.js";
export { instructionsStatus } from "./instructions-status.js";
