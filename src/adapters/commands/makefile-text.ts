/**
 * A makefile's text split the way GNU make reads it: variable definitions, includes, rules with
 * their recipe lines, and the directives that change how the rest is read. Nothing is expanded
 * here (make-variables.ts does that) and no file is read (make-reach.ts does). Where make would
 * run or load something the harness cannot read (`load`, a new `.RECIPEPREFIX`), the line says so.
 */

export type AssignmentOperator = "=" | ":=" | "::=" | ":::=" | "?=" | "+=" | "!=";

export type MakefileLine =
  | {
      readonly kind: "define";
      readonly name: string;
      readonly operator: AssignmentOperator;
      readonly value: string;
      /** Inside an `ifeq`/`ifdef` block: whether make reads it depends on the condition. */
      readonly conditional: boolean;
      readonly override: boolean;
      readonly exported: boolean;
    }
  /** `target: VAR = value`: the variable has another value in that target's recipes. */
  | { readonly kind: "targetVariable"; readonly name: string; readonly value: string }
  | { readonly kind: "include"; readonly names: string }
  | { readonly kind: "export"; readonly names: string | undefined }
  | {
      readonly kind: "rule";
      readonly targets: string;
      readonly prerequisites: string;
      readonly orderOnly: string;
      /** `%` rules and static pattern rules: which files `$@` and `$<` are depends on the files there. */
      readonly staticPattern: boolean;
      /** Each recipe line, its continued lines joined as the shell reads them. */
      readonly recipe: string[];
    }
  /** Text make expands while reading (a conditional's test, a bare `$(info …)`). */
  | { readonly kind: "expression"; readonly text: string }
  | { readonly kind: "vpath" }
  | { readonly kind: "refused"; readonly why: string };

const OPERATOR = /^(.*?)(:::=|::=|:=|\?=|\+=|!=|=)(.*)$/su;

/** The index of the first of `chars` outside `$(…)` and `${…}`, or -1. */
export function topLevelIndex(text: string, chars: string, from = 0): number {
  let depth = 0;
  for (let at = from; at < text.length; at += 1) {
    const char = text[at] ?? "";
    if (char === "$" && (text[at + 1] === "(" || text[at + 1] === "{")) {
      depth += 1;
      at += 1;
    } else if (depth > 0 && (char === ")" || char === "}")) {
      depth -= 1;
    } else if (depth === 0 && chars.includes(char)) {
      return at;
    }
  }
  return -1;
}

/** A line's text up to its comment (`#` not escaped), for lines that are not recipe lines. */
function withoutComment(line: string): string {
  const at = line.search(/(?<!\\)#/u);
  return at < 0 ? line : line.slice(0, at);
}

/** Parses one makefile's text into what make reads from it, in order. */
export function parseMakefile(text: string): MakefileLine[] {
  const lines = text.split(/\r?\n/u);
  const out: MakefileLine[] = [];
  let rule: Extract<MakefileLine, { kind: "rule" }> | undefined;
  let conditionals = 0;
  for (let at = 0; at < lines.length; at += 1) {
    let line = lines[at] ?? "";
    // A recipe line: its continued lines stay lines of the same shell text (make passes the
    // backslash-newline on, and the shell joins them), less the tab that leads each.
    if (rule !== undefined && line.startsWith("\t")) {
      let recipe = line.slice(1);
      while (/(?<!\\)(?:\\\\)*\\$/u.test(recipe) && at + 1 < lines.length) {
        at += 1;
        recipe = `${recipe.slice(0, -1)}${(lines[at] ?? "").replace(/^\t/u, "")}`;
      }
      rule.recipe.push(recipe);
      continue;
    }
    while (/(?<!\\)(?:\\\\)*\\$/u.test(line) && at + 1 < lines.length) {
      at += 1;
      line = `${line.slice(0, -1)} ${(lines[at] ?? "").trimStart()}`;
    }
    const logical = withoutComment(line).trim();
    if (logical === "") continue;
    const [first = "", ...restWords] = logical.split(/\s+/u);
    const rest = logical.slice(first.length).trim();
    if (["ifeq", "ifneq", "ifdef", "ifndef"].includes(first)) {
      conditionals += 1;
      out.push({ kind: "expression", text: rest });
      continue;
    }
    if (first === "else") {
      if (restWords.length > 0) out.push({ kind: "expression", text: rest });
      continue;
    }
    if (first === "endif") {
      conditionals = Math.max(0, conditionals - 1);
      continue;
    }
    rule = undefined;
    if (first === "define" || /^(?:override|export|private)$/u.test(first)) {
      const defined = defineBlock(lines, at, conditionals > 0);
      if (defined !== undefined) {
        out.push(defined.line);
        at = defined.end;
        continue;
      }
    }
    if (["include", "-include", "sinclude"].includes(first)) {
      out.push({ kind: "include", names: rest });
      continue;
    }
    if (first === "load" || first === "-load") {
      out.push({
        kind: "refused",
        why: `loads ${JSON.stringify(rest)} into make itself, code the harness cannot read`,
      });
      continue;
    }
    if (first === "vpath") {
      out.push({ kind: "vpath" });
      continue;
    }
    if (first === "unexport") continue;
    const parsed = statement(logical, conditionals > 0);
    out.push(parsed);
    if (parsed.kind === "rule") rule = parsed;
  }
  return out;
}

/** `define NAME [op]` … `endef`, perhaps after `override`/`export`: its lines are its value. */
function defineBlock(
  lines: readonly string[],
  at: number,
  conditional: boolean,
): { line: MakefileLine; end: number } | undefined {
  const head = withoutComment(lines[at] ?? "").trim();
  const match = /^((?:(?:override|export|private)\s+)*)define\s+(\S+)\s*(\S*)\s*$/u.exec(head);
  if (match === null) return undefined;
  const [, prefixes = "", name = "", operator = ""] = match;
  const body: string[] = [];
  let depth = 1;
  let end = at + 1;
  for (; end < lines.length; end += 1) {
    const line = lines[end] ?? "";
    if (/^\s*(?:(?:override|export|private)\s+)*define\s/u.test(line)) depth += 1;
    if (/^\s*endef\b/u.test(line)) depth -= 1;
    if (depth === 0) break;
    body.push(line);
  }
  return {
    line: {
      kind: "define",
      name,
      operator: asOperator(operator === "" ? "=" : operator),
      value: body.join("\n"),
      conditional,
      override: prefixes.includes("override"),
      exported: prefixes.includes("export"),
    },
    end,
  };
}

function asOperator(text: string): AssignmentOperator {
  switch (text) {
    case ":=":
    case "::=":
    case ":::=":
    case "?=":
    case "+=":
    case "!=":
      return text;
    default:
      return "=";
  }
}

/** A line that is not a directive: an assignment, a rule, or text make only expands. */
function statement(logical: string, conditional: boolean): MakefileLine {
  let text = logical;
  let override = false;
  let exported = false;
  for (;;) {
    const prefix = /^(override|export|private)(?:\s+|$)/u.exec(text);
    if (prefix === null) break;
    if (prefix[1] === "override") override = true;
    if (prefix[1] === "export") exported = true;
    text = text.slice(prefix[0].length);
  }
  const split = topLevelIndex(text, "=:");
  const isAssignment = split >= 0 && (text[split] === "=" || /^:{1,3}=/u.test(text.slice(split)));
  if (isAssignment) {
    const match = OPERATOR.exec(text);
    const [, rawName = "", operator = "=", value = ""] = match ?? [];
    const name = rawName.trim();
    if (name === ".RECIPEPREFIX") {
      return {
        kind: "refused",
        why: "sets .RECIPEPREFIX, which changes which lines are recipes",
      };
    }
    return {
      kind: "define",
      name,
      operator: asOperator(operator),
      value: value.trim(),
      conditional,
      override,
      exported,
    };
  }
  if (exported) return { kind: "export", names: text === "" ? undefined : text };
  if (split < 0) return { kind: "expression", text };
  return rule(text, split);
}

function rule(text: string, colon: number): MakefileLine {
  const targets = text.slice(0, colon).trim();
  let after = text.slice(colon + 1);
  if (after.startsWith(":")) after = after.slice(1); // `::` rules
  const semicolon = topLevelIndex(after, ";");
  const inline = semicolon < 0 ? undefined : after.slice(semicolon + 1).trim();
  const head = semicolon < 0 ? after : after.slice(0, semicolon);
  const equals = topLevelIndex(head, "=");
  if (equals >= 0) {
    const match = OPERATOR.exec(head.trim());
    const name = (match?.[1] ?? "").replace(/^(?:\s*(?:override|export|private)\s+)*/u, "").trim();
    return { kind: "targetVariable", name, value: match?.[3] ?? "" };
  }
  const staticColon = topLevelIndex(head, ":");
  const prerequisites = staticColon < 0 ? head : head.slice(staticColon + 1);
  const bar = topLevelIndex(prerequisites, "|");
  return {
    kind: "rule",
    targets,
    prerequisites: (bar < 0 ? prerequisites : prerequisites.slice(0, bar)).trim(),
    orderOnly: bar < 0 ? "" : prerequisites.slice(bar + 1).trim(),
    staticPattern: staticColon >= 0 || targets.includes("%"),
    recipe: inline === undefined || inline === "" ? [] : [inline],
  };
}
