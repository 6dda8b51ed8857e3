/**
 * The agent's own install as harness-owned paths: found from the running module by the nearest
 * package.json that names the package, by real path, links followed to their targets too.
 */
import { mkdir, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  AGENT_INSTALL_ENTRIES,
  agentInstallPaths,
} from "../../../src/adapters/filesystem/index.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace("agent-install-");
});
afterEach(() => temp.cleanup());

async function makePackage(root: string, name: string): Promise<string> {
  await mkdir(join(root, "dist"), { recursive: true });
  await writeFile(join(root, "package.json"), JSON.stringify({ name }));
  const bundle = join(root, "dist", "agent-bundle.cjs");
  await writeFile(bundle, "");
  return bundle;
}

describe("agentInstallPaths", () => {
  it("lists the package's entries by real path, from a module in dist/ reached through a link", async () => {
    const root = temp.root;
    const bundle = await makePackage(join(root, "agent"), "agent-harness");
    await mkdir(join(root, "modules"));
    await symlink(join(root, "modules"), join(root, "agent", "node_modules"));
    await symlink(join(root, "agent"), join(root, "linked"));

    const paths = agentInstallPaths(
      pathToFileURL(join(root, "linked", "dist", "agent-bundle.cjs")),
      "agent-harness",
    );

    expect(bundle).toBe(join(root, "agent", "dist", "agent-bundle.cjs"));
    expect(paths).toEqual([
      ...AGENT_INSTALL_ENTRIES.map((entry) => join(root, "agent", entry)),
      join(root, "modules"),
    ]);
  });

  it("skips a package.json that names another package, and finds none above the root", async () => {
    const root = temp.root;
    await makePackage(join(root, "agent"), "agent-harness");
    const inner = await makePackage(join(root, "agent", "dist", "vendored"), "something-else");
    expect(agentInstallPaths(pathToFileURL(inner), "agent-harness")).toEqual(
      AGENT_INSTALL_ENTRIES.map((entry) => join(root, "agent", entry)),
    );
    expect(agentInstallPaths(pathToFileURL(inner), "no-such-package")).toEqual([]);
  });
});
