/**
 * The second seed's tools as its tests import them (`runCommandTool`, `externalTool`,
 * `readFileTool`): our own definitions seen as the seed's `RegisteredTool`. Nothing here runs.
 */
import { registeredTool, type RegisteredTool } from "../../src/core/tools/registered-tool.js";
import { createFetchUrlTool } from "../../src/features/fetch-url-tool.js";
import { createRunCommandTool } from "../../src/features/run-command-tool.js";
import { probeTool } from "./prepared-calls.js";
import { commandChecksThatRefuse } from "./permission-fakes.js";

export const runCommandTool: RegisteredTool = registeredTool(
  createRunCommandTool({
    runner: { run: () => Promise.reject(new Error("the seed's policy tests never run it")) },
    workspace: "/workspace",
    ...commandChecksThatRefuse(),
  }),
);

/** The seed's tool of effect `external`: visible to the model, always denied. */
export const externalTool: RegisteredTool = registeredTool(createFetchUrlTool());

export const readFileTool: RegisteredTool = registeredTool(probeTool("read_file", "read"));
export const writeFileTool: RegisteredTool = registeredTool(probeTool("write_file", "write"));
