/**
 * The grep walk lists each directory through a held descriptor: a directory that a command still
 * running swaps for a link, between the walk seeing it and listing it, is not entered.
 */
import { renameSync, symlinkSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { heldDirectoryLister } from "../../../src/adapters/filesystem/held-listing.js";
import { grepWorkspace } from "../../../src/adapters/filesystem/workspace-grep.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/temp-workspace.js";

let temp: TempWorkspace;
beforeEach(async () => {
  temp = await makeTempWorkspace();
});
afterEach(() => temp.cleanup());

const REQUEST = {
  pattern: "needle",
  fixedStrings: true,
  ignoreCase: false,
  context: 0,
  maxResults: 100,
};

describe.runIf(process.platform === "linux")("grepWorkspace", () => {
  it("never lists a directory swapped for a link out of the workspace mid-walk", async () => {
    await mkdir(join(temp.ws, "sub"));
    await writeFile(join(temp.ws, "sub", "own.txt"), "needle\n");
    await mkdir(join(temp.evil, "deeper"));
    await writeFile(join(temp.evil, "deeper", "secret.txt"), "needle\n");
    const held = heldDirectoryLister();
    const asked: string[] = [];
    let swapped = false;
    // What a command running beside the walk could do: after the walk saw `sub` as a directory,
    // before it lists it.
    const list = (path: string) => {
      asked.push(path);
      if (path === `${join(temp.ws, "sub")}/`) {
        renameSync(join(temp.ws, "sub"), join(temp.base, "sub-away"));
        symlinkSync(temp.evil, join(temp.ws, "sub"));
        swapped = true;
      }
      return held(path);
    };
    const result = await grepWorkspace(temp.ws, REQUEST, undefined, list);
    expect(swapped).toBe(true);
    expect(result.lines).toEqual([]);
    // The swapped name was not listed, so nothing below it was asked for.
    expect(asked).toEqual([`${temp.ws}/`, `${join(temp.ws, "sub")}/`]);
  });
});
