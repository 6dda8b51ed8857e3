/**
 * The npm project both P04 end-to-end files run against, and the model's call to run its scripts.
 * `npm test` and `npm run lint` each append a line "ran" to marker.txt and lint.txt, so those
 * files count the runs.
 */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { chatToolCallsReply } from "../support/chat-completions-server.js";

export function countingPackageJson(name: string) {
  return {
    name,
    private: true,
    scripts: {
      test: "node -e \"require('fs').appendFileSync('marker.txt', 'ran\\n')\"",
      lint: "node -e \"require('fs').appendFileSync('lint.txt', 'ran\\n')\"",
    },
  };
}

export function writePackageJson(workspace: string, packageJson: object): Promise<void> {
  return writeFile(join(workspace, "package.json"), JSON.stringify(packageJson));
}

/** A model reply with one call: `run_command` of npm with `args`. */
export function npmCall(id: string, args: readonly string[] = ["test"]) {
  return chatToolCallsReply([{ id, name: "run_command", arguments: { command: "npm", args } }]);
}
