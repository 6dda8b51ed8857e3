/**
 * The simple commands of a package.json script, as `sh -c` would split them, for the harness to
 * find what else the script runs (another npm script, a file given to an interpreter). Only what
 * the harness can read plainly is split: a command substitution, a process substitution, `eval`,
 * a here-document or a word the shell expands into a program name hides what runs, so such a
 * script is refused (UnbindableCommandError) rather than bound to less than it runs.
 */
import { UnbindableCommandError } from "../../core/grants/unbindable-command.js";

/** One simple command: its words after quotes are removed, and which of them the shell expands. */
export interface SimpleCommand {
  readonly words: readonly string[];
  /** Parallel to `words`: true where the word had an unquoted or double-quoted `$`, `*`, `?`, `[`. */
  readonly expands: readonly boolean[];
  /** The files `<` (or `N<`) feeds it: what it reads, and may run (`sh /dev/stdin < f.sh`). */
  readonly inputs: readonly { readonly word: string; readonly expands: boolean }[];
}

const OPERATORS = new Set(["&&", "||", ";", "|", "&", "\n", "(", ")", ";;", "|&"]);
const REDIRECTS = /^[0-9]*(?:>>?|<>?|>&|<&|&>>?|>\|)$/u;

function hidden(why: string): UnbindableCommandError {
  return new UnbindableCommandError(
    `the script ${why}, which hides what it runs from the harness, so it cannot be bound to an approval; write it as plain commands`,
  );
}

/** Splits `text` into tokens: words (quotes removed) and operators. */
function tokens(text: string): { word: string; expands: boolean; operator: boolean }[] {
  const out: { word: string; expands: boolean; operator: boolean }[] = [];
  let word = "";
  let expands = false;
  let inWord = false;
  /** An unquoted `{` in the word: with a `,` or `..` after it, bash expands it (`{evil,}.sh`). */
  let brace = false;
  const end = (): void => {
    // A lone `[` is the test command (`[ -n "$CI" ]`), not a glob: a glob's `[` closes in its word.
    if (word === "[" || word === "[[") expands = false;
    if (brace && /\{[^{}]*(?:,|\.\.)[^{}]*\}/u.test(word)) expands = true;
    brace = false;
    if (inWord) out.push({ word, expands, operator: false });
    word = "";
    expands = false;
    inWord = false;
  };
  for (let at = 0; at < text.length; at += 1) {
    const char = text[at] ?? "";
    const next = text[at + 1] ?? "";
    if (char === "`" || (char === "$" && next === "(")) throw hidden("has a command substitution");
    if ((char === "<" || char === ">") && next === "(") throw hidden("has a process substitution");
    if (char === "<" && next === "<") throw hidden("has a here-document");
    if (char === "'") {
      const close = text.indexOf("'", at + 1);
      if (close < 0) throw hidden("has an unclosed quote");
      word += text.slice(at + 1, close);
      inWord = true;
      at = close;
    } else if (char === '"') {
      at += 1;
      for (; at < text.length && text[at] !== '"'; at += 1) {
        const inner = text[at] ?? "";
        if (inner === "`" || (inner === "$" && text[at + 1] === "(")) {
          throw hidden("has a command substitution");
        }
        if (inner === "\\" && /["\\$`\n]/u.test(text[at + 1] ?? "")) {
          at += 1;
          word += text[at] ?? "";
          continue;
        }
        if (inner === "$") expands = true;
        word += inner;
      }
      if (at >= text.length) throw hidden("has an unclosed quote");
      inWord = true;
    } else if (char === "\\") {
      at += 1;
      if (text[at] !== "\n") word += text[at] ?? "";
      inWord = true;
    } else if (char === "#" && !inWord) {
      const line = text.indexOf("\n", at);
      at = line < 0 ? text.length : line - 1;
    } else if (/[ \t\r]/u.test(char)) {
      end();
    } else if (/[&|;()\n<>]/u.test(char)) {
      // `2>`, `&>`: a redirection's digits belong to the operator, not to a word.
      const digits = /^[0-9]+$/u.test(word) && inWord && (char === "<" || char === ">");
      if (!digits) end();
      let operator = digits ? word + char : char;
      word = "";
      inWord = false;
      const pair = char + next;
      if (["&&", "||", ";;", "|&", ">>", "&>", ">&", "<&", ">|", "<>"].includes(pair)) {
        operator += next;
        at += 1;
        if (operator.endsWith("&>") && text[at + 1] === ">") {
          operator += ">";
          at += 1;
        }
      }
      out.push({ word: operator, expands: false, operator: true });
    } else {
      if (char === "$" || char === "*" || char === "?" || char === "[" || char === "~") {
        expands = true;
      }
      if (char === "{") brace = true;
      word += char;
      inWord = true;
    }
  }
  end();
  return out;
}

/** The simple commands of a script; an output redirection's target left out, an input's kept apart. */
export function simpleCommands(text: string): SimpleCommand[] {
  const commands: SimpleCommand[] = [];
  let words: string[] = [];
  let expands: boolean[] = [];
  let inputs: { word: string; expands: boolean }[] = [];
  let target: "input" | "output" | undefined;
  const flush = (): void => {
    if (words.length > 0 || inputs.length > 0) commands.push({ words, expands, inputs });
    words = [];
    expands = [];
    inputs = [];
  };
  for (const token of tokens(text)) {
    if (token.operator && REDIRECTS.test(token.word)) {
      // `<>` opens the file for reading too: what it feeds is read, and may be run.
      target = /^[0-9]*<>?$/u.test(token.word) ? "input" : "output";
    } else if (token.operator) {
      if (!OPERATORS.has(token.word))
        throw hidden(`has the operator ${JSON.stringify(token.word)}`);
      flush();
    } else if (target !== undefined) {
      if (target === "input") inputs.push({ word: token.word, expands: token.expands });
      target = undefined;
    } else {
      words.push(token.word);
      expands.push(token.expands);
    }
  }
  flush();
  return commands;
}

/** The first word (or `<` target) of `text` the shell expands, or undefined when none does. */
export function expandedWord(text: string): string | undefined {
  for (const command of simpleCommands(text)) {
    const at = command.expands.findIndex(Boolean);
    if (at >= 0) return command.words[at];
    const input = command.inputs.find((each) => each.expands);
    if (input !== undefined) return input.word;
  }
  return undefined;
}
