/**
 * The README is a short manual that links to docs/ for depth: every relative link in README.md and
 * docs/*.md must name a file that exists and, with a #fragment, a heading of that file (the anchor
 * GitHub makes of it). And every docs/ page is reachable from the README.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const pages = [
  "README.md",
  ...readdirSync(join(root, "docs"))
    .filter((name) => name.endsWith(".md"))
    .map((name) => `docs/${name}`),
];

/** Markdown without its fenced code blocks, where `](…)` is text, not a link. */
function prose(page: string): string {
  return readFileSync(join(root, page), "utf8").replace(/^```[\s\S]*?^```/gm, "");
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchor(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\- ]/gu, "")
    .replaceAll(" ", "-");
}

function anchorsOf(page: string): Set<string> {
  const headings = prose(page).match(/^#{1,6} .*$/gm) ?? [];
  return new Set(headings.map((line) => anchor(line.replace(/^#+ /, ""))));
}

/** The relative links of `page` (its text `text`) that name no file, or no heading of it. */
function brokenLinks(page: string, text = prose(page)): string[] {
  const broken: string[] = [];
  for (const [, link] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (link === undefined || /^[a-z]+:/.test(link)) continue;
    const [target = "", fragment] = link.split("#");
    const file = target === "" ? page : normalize(join(dirname(page), target));
    if (!existsSync(join(root, file))) broken.push(`${page}: ${link} (no such file)`);
    else if (fragment !== undefined && file.endsWith(".md") && !anchorsOf(file).has(fragment)) {
      broken.push(`${page}: ${link} (no such heading)`);
    }
  }
  return broken;
}

describe("the README and docs/ link to each other", () => {
  it.each(pages)("every relative link in %s resolves", (page) => {
    expect(brokenLinks(page)).toEqual([]);
  });

  it("links every docs/ page from the README", () => {
    const readme = prose("README.md");
    const unlinked = pages.filter((page) => page !== "README.md" && !readme.includes(`](${page}`));
    expect(unlinked).toEqual([]);
  });

  it("finds a link to a missing file or heading, and lets good ones pass", () => {
    const text =
      "[a](missing.md) [b](sandbox.md#nope) [c](sandbox.md#resource-limits) " +
      "[d](../README.md#the-sandbox-in-plain-words) [e](https://example.org/x.md) [f](#nowhere)";
    expect(brokenLinks("docs/tools.md", text)).toEqual([
      "docs/tools.md: missing.md (no such file)",
      "docs/tools.md: sandbox.md#nope (no such heading)",
      "docs/tools.md: #nowhere (no such heading)",
    ]);
    expect(anchor("Working in the sandbox: caches, network, credentials, limits")).toBe(
      "working-in-the-sandbox-caches-network-credentials-limits",
    );
  });
});
