// How tall a run view row will be before it is rendered, from its content: lines of text and the
// tool call's card (its raw JSON is folded) at the row styles' sizes (styles.css, .ev). Only an estimate — rows
// are measured once shown — but a close one keeps the list from jumping while it is scrolled.
import type { RunItem } from "../../model/run-fold.js";
import { toolCard } from "../../model/tool-card.js";

const ROW_CHROME = 13; // padding and border of a row
const LINE = 21; // 0.9rem text, line-height 1.45
const SMALL_LINE = 19;
const CHARS_PER_LINE = 120;

function wrapped(text: string, chars = CHARS_PER_LINE): number {
  let lines = 0;
  for (const line of text.split("\n")) lines += Math.max(1, Math.ceil(line.length / chars));
  return lines;
}

function card(item: Extract<RunItem, { kind: "tool" }>): number {
  const c = toolCard(item);
  const error =
    (item.state === "failed" || item.state === "refused") && item.result !== undefined
      ? LINE * Math.min(4, wrapped(item.result))
      : 0;
  switch (c.kind) {
    case "hire":
      return error + 20 + LINE * (1 + wrapped(c.description ?? "")) + SMALL_LINE * 2;
    case "approval":
      return error + 40 + LINE * wrapped(c.payload, 100);
    case "reply":
      return error + 20 + LINE * wrapped(c.text) + SMALL_LINE;
    case "task":
      return error + SMALL_LINE;
    case "other":
      return error;
  }
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
      // The head, the card of its kind, the error of a failed call and the folded "details" line.
      return ROW_CHROME + 26 + card(item) + 22;
  }
}
