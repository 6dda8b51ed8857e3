/** `agent: …` lines: broken between words on a terminal, written whole anywhere else. */
import { describe, expect, it } from "vitest";
import { sayAgent } from "../../../src/cli/terminal/render/agent-line.js";

function said(message: string, terminal?: { columns: number }): string {
  let text = "";
  const output = {
    write: (chunk: string) => (text += chunk),
    ...(terminal === undefined ? {} : { isTTY: true, columns: terminal.columns }),
  };
  sayAgent(output, message);
  return text;
}

const BANNER =
  "workspace /home/me/myproject · model gpt-4.1-mini · endpoint http://127.0.0.1:18765/v1";

describe("sayAgent", () => {
  it("on a terminal of 60 columns: rows break between words, the rest indented", () => {
    expect(said(BANNER, { columns: 60 }).split("\n")).toEqual([
      "agent: workspace /home/me/myproject · model gpt-4.1-mini ·",
      "  endpoint http://127.0.0.1:18765/v1",
      "",
    ]);
  });

  it("piped, one line as it always was, escaped", () => {
    expect(said(`${BANNER}\u001b[2J`)).toBe(`agent: ${BANNER}\\u{001b}[2J\n`);
  });
});
