/** The markdown table `npm run bench` prints and docs/performance.md quotes. */
import type { Row, SectionResult, Unit } from "./measurement.js";

const HEADER = ["Section", "Measure", "Median", "Min", "Max", "Runs", "Compared / notes"];

export function markdownTable(sections: readonly SectionResult[]): string {
  const lines = [
    tableRow(HEADER),
    tableRow(HEADER.map((_, index) => (index < 2 || index === HEADER.length - 1 ? "---" : "--:"))),
  ];
  for (const section of sections) {
    section.rows.forEach((row, index) => {
      lines.push(tableRow(cellsOf(index === 0 ? section.title : "", row)));
    });
  }
  const notes = sections.flatMap((section) =>
    section.notes.map((note) => `- ${section.title}: ${note}`),
  );
  const targets = sections.flatMap((section) =>
    section.rows.flatMap((row) =>
      (row.targets ?? []).map(
        (target) =>
          `- ${target.met ? "PASS" : "**FAIL**"}: ${section.title}, ${row.name}: ` +
          `${target.figure} (target ${target.goal})`,
      ),
    ),
  );
  const blocks = [lines.join("\n")];
  if (notes.length > 0) blocks.push(notes.join("\n"));
  if (targets.length > 0) blocks.push(`Goals (PASS or FAIL in this run):\n\n${targets.join("\n")}`);
  return blocks.join("\n\n");
}

function cellsOf(section: string, row: Row): string[] {
  return [
    section,
    row.name,
    formatValue(row.summary.median, row.unit),
    formatValue(row.summary.min, row.unit),
    formatValue(row.summary.max, row.unit),
    String(row.summary.runs),
    row.note,
  ];
}

export function formatValue(value: number, unit: Unit): string {
  if (unit === "calls/s") return `${Math.round(value).toLocaleString("en-US")} calls/s`;
  return `${formatNumber(value)} ${unit}`;
}

/** Three significant figures or so: enough to compare, not so many that noise looks like data. */
export function formatNumber(value: number): string {
  const magnitude = Math.abs(value);
  if (magnitude >= 100) return Math.round(value).toLocaleString("en-US");
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

function tableRow(cells: readonly string[]): string {
  return `| ${cells.map((cell) => cell.replaceAll("|", "\\|")).join(" | ")} |`;
}
