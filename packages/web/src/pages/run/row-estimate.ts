// How tall a run view row will be before it is rendered, from its content: lines of text and of
// clipped arguments/results at the row styles' sizes (styles.css, .ev). Only an estimate — rows
// are measured once shown — but a close one keeps the list from jumping while it is scrolled.
import type { RunItem } from "../../model/run-fold.js";

const ROW_CHROME = 13; // padding and border of a row
const LINE = 21; // 0.9rem text, line-height 1.45
const SMALL_LINE = 19;
const CODE_LINE = 20; // 0.85rem monospace in a pre
const CHARS_PER_LINE = 120;
const CLIP_LINES = 10;

function wrapped(text: string, chars = CHARS_PER_LINE): number {
  let lines = 0;
  for (const line of text.split("\n")) lines += Math.max(1, Math.ceil(line.length / chars));
  return lines;
}

function block(text: string): number {
  const lines = text.split("\n").length;
  const shown = Math.min(lines, CLIP_LINES + 1);
  // label + pre (+ the "Show all" button when clipped)
  return 32 + shown * CODE_LINE + 16 + (lines > CLIP_LINES ? 22 : 0);
}

export function estimateRow(item: RunItem): number {
  switch (item.kind) {
    case "turn":
    case "usage":
    case "compaction":
    case "unknown":
    case "terminal":
      return ROW_CHROME + SMALL_LINE;
    case "policy": // core's reasons can run past one line
    case "harness":
      return ROW_CHROME + SMALL_LINE * wrapped(item.text);
    case "text":
    case "thinking":
    case "error":
      return ROW_CHROME + LINE * wrapped("message" in item ? item.message : item.text);
    case "tool":
      return ROW_CHROME + 26 + block(item.args || " ") + (item.result !== undefined ? block(item.result) : 0);
  }
}
