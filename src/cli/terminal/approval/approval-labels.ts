import type { Language } from "../../args.js";

export interface ApprovalLabels {
  readonly title: string;
  readonly reason: string;
  readonly arguments: string;
  readonly path: string;
  readonly startAndEnd: string;
  readonly runsIn: string;
  /** The shell that reads a command: a PowerShell line and a bash line can read the same. */
  readonly shell: string;
  readonly change: string;
  /** A write's whole size, however little of it the prompt shows. */
  readonly writes: (bytes: number, lines: number) => string;
  readonly question: string;
  /** The question where `a` may answer for the rest of the run. */
  readonly questionForRun: string;
  /** Said above `[y/N]` where `a` would be offered but no grant could keep this action. */
  readonly notForRun: string;
  /** Said when `a` is typed at that `[y/N]`: the question is asked again, nothing decided. */
  readonly forRunNotAnAnswer: string;
  /** The questions where the diff above could not show the whole change: `v` shows it. */
  readonly questionWithView: string;
  readonly questionForRunWithView: string;
  /** Said above such a question: what `v` does, under a diff, or under shortened arguments. */
  readonly viewNote: string;
  readonly viewArgumentsNote: string;
  /** Above the whole change, once `v` asked for it. */
  readonly wholeChange: string;
  /** Above every argument whole, once `v` asked for them where no diff could be shown. */
  readonly wholeArguments: string;
}

/** The Chinese labels follow the tutorial the harness is built from. */
export const APPROVAL_LABELS: Readonly<Record<Language, ApprovalLabels>> = Object.freeze({
  en: {
    title: "Tool call needs approval",
    reason: "Reason",
    arguments: "Arguments",
    path: "Path",
    startAndEnd: "Starts and ends",
    runsIn: "Runs in",
    shell: "Shell",
    change: "Proposed change",
    writes: (bytes, lines) =>
      `Writes: ${grouped(bytes)} ${bytes === 1 ? "byte" : "bytes"} in ${grouped(lines)} ${lines === 1 ? "line" : "lines"} (the whole content)`,
    question: "Allow this call? [y/N] ",
    questionForRun: "Allow this call? [y/N/a] (a: this exact action, for the rest of this run) ",
    notForRun: "No a (for the rest of this run) here",
    forRunNotAnAnswer: "a is not an answer here: y allows this call once, Enter denies it",
    questionWithView: "Allow this call? [y/N/v] ",
    questionForRunWithView:
      "Allow this call? [y/N/a/v] (a: this exact action, for the rest of this run) ",
    viewNote: "v: view the whole change (the diff above leaves part of it out)",
    viewArgumentsNote: "v: view the whole arguments (the line above leaves part of them out)",
    wholeChange: "The whole change",
    wholeArguments: "The whole arguments",
  },
  zh: {
    title: "工具调用需要批准",
    reason: "原因",
    arguments: "参数",
    path: "路径",
    startAndEnd: "首尾",
    runsIn: "运行环境",
    shell: "命令解释器",
    change: "拟议修改",
    writes: (bytes, lines) => `写入: 共 ${grouped(bytes)} 字节, ${grouped(lines)} 行 (全部内容)`,
    question: "允许本次调用? [y/N] ",
    questionForRun: "允许本次调用? [y/N/a] (a: 本次运行中允许完全相同的操作) ",
    notForRun: "此处不提供 a (本次运行中一直允许)",
    forRunNotAnAnswer: "此处不能回答 a: y 仅允许本次调用, 回车拒绝",
    questionWithView: "允许本次调用? [y/N/v] ",
    questionForRunWithView: "允许本次调用? [y/N/a/v] (a: 本次运行中允许完全相同的操作) ",
    viewNote: "v: 查看完整修改 (上面的差异省略了一部分)",
    viewArgumentsNote: "v: 查看完整参数 (上面的参数省略了一部分)",
    wholeChange: "完整修改",
    wholeArguments: "完整参数",
  },
});

/** 2000001 as 2,000,001: a size a person reads at a glance. */
function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/gu, ",");
}
