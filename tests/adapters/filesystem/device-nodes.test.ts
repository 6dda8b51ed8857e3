/**
 * A device node where the harness expects a regular file is refused before it is opened: opening
 * a device runs its driver. Character device 240:0 (a local-use major with no driver) shows
 * whether an open was tried: the kernel answers ENXIO, which would otherwise be reported as a
 * FIFO or socket. Making device nodes needs root with CAP_MKNOD: tests/support/device-nodes.ts asks.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JsonlAuditLog } from "../../../src/adapters/audit/index.js";
import {
  NodeWorkspaceFileSystem,
  readHarnessInput,
} from "../../../src/adapters/filesystem/index.js";
import { CAN_MKNOD, MKNOD_MISSING } from "../../support/device-nodes.js";
import { makeTempWorkspace, type TempWorkspace } from "../../support/workspace.js";

describe.runIf(CAN_MKNOD)(
  `a device node in place of a file${CAN_MKNOD ? "" : ` ${MKNOD_MISSING}`}`,
  () => {
    let temp: TempWorkspace;
    let device: string;
    beforeEach(async () => {
      temp = await makeTempWorkspace();
      mkdirSync(join(temp.workspace, "dev"));
      device = join(temp.workspace, "dev", "node");
      execFileSync("mknod", [device, "c", "240", "0"]);
    });
    afterEach(() => temp.cleanup());

    it("the audit log is refused as a device, not opened", () => {
      expect(() => new JsonlAuditLog({ path: device, chapter: 3 })).toThrow(
        `Cannot open the audit log ${device}: it is a device; the harness only uses a regular file`,
      );
    });

    it("a harness input is refused as a device, not opened", () => {
      expect(() => readHarnessInput(device, 1024)).toThrow(
        "it is a device; the harness only uses a regular file",
      );
    });

    it("read_file and edit_file refuse it as not a regular file", async () => {
      const files = new NodeWorkspaceFileSystem(temp.workspace);
      await expect(files.readFile("dev/node")).rejects.toThrow("dev/node is not a regular file");
      await expect(
        files.editFile("dev/node", { oldString: "a", newString: "b", replaceAll: false }),
      ).rejects.toThrow("dev/node is not a regular file");
    });
  },
);
