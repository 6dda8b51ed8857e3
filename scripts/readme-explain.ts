/** Rewrites the generated walk-through in docs/tool-path.md from `agent explain` (src/cli/readme-walkthrough.ts). */
import { readFileSync, writeFileSync } from "node:fs";
import { walkthroughText, withWalkthrough } from "../src/cli/readme-walkthrough.js";

const path = new URL("../docs/tool-path.md", import.meta.url);
writeFileSync(path, withWalkthrough(readFileSync(path, "utf8"), await walkthroughText()));
