// Writes report.json, report.md and report.html into a directory.
import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { EvalReport } from "../compare/compare.js";
import { renderHtml } from "./html.js";
import { renderMarkdown } from "./markdown.js";

export interface ReportFiles {
  json: string;
  md: string;
  html: string;
}

export async function writeReport(dir: string, report: EvalReport): Promise<ReportFiles> {
  const root = resolve(dir);
  await mkdir(root, { recursive: true });
  const files = {
    json: join(root, "report.json"),
    md: join(root, "report.md"),
    html: join(root, "report.html"),
  };
  await writeFile(files.json, `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(files.md, renderMarkdown(report));
  await writeFile(files.html, renderHtml(report));
  return files;
}
