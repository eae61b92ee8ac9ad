// The bounded handoff written when a native window is closed (MC-9 rollover, MC-12 handoff
// rebuild, MC-13 model switch). Built by code from the transcript: no model call, a hard byte cap,
// and never a tool_result body (official compaction clears old tool output first; after it fails
// the handoff must not carry it either — MC-12).

import { truncateUtf8, utf8Length } from "./utf8-bytes.js";

export type TranscriptItem =
  | { kind: "task"; text: string }
  | { kind: "decision"; text: string }
  /** Open work by id; the latest status of an id wins, only "open" ones are handed off. */
  | { kind: "open-work"; id: string; text: string; status: "open" | "done" }
  | { kind: "user"; text: string }
  | { kind: "assistant"; text: string }
  | { kind: "tool_call"; name: string }
  | { kind: "tool_result"; name: string; isError: boolean; body: string };

export interface HandoffOptions {
  /** Hard cap on the UTF-8 size of the whole document. */
  maxBytes?: number;
  /** How many of the latest user turns get a gist. */
  recentTurns?: number;
  /** Cap on each gist line. */
  lineBytes?: number;
}

export const DEFAULT_HANDOFF_MAX_BYTES = 12_000;
const DEFAULT_RECENT_TURNS = 4;
const DEFAULT_LINE_BYTES = 400;
const HEADER =
  "# Handoff\nContext rebuilt by the host from the previous window (bounded; tool outputs omitted).\n";

function oneLine(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function openWork(items: readonly TranscriptItem[]): string[] {
  const latest = new Map<string, { text: string; status: "open" | "done" }>();
  for (const item of items) {
    if (item.kind !== "open-work") continue;
    latest.delete(item.id); // re-insert so order follows the latest update
    latest.set(item.id, { text: item.text, status: item.status });
  }
  return [...latest.values()].filter((w) => w.status === "open").map((w) => w.text);
}

function gist(item: TranscriptItem): string | undefined {
  switch (item.kind) {
    case "user":
      return `user: ${oneLine(item.text)}`;
    case "assistant":
      return `assistant: ${oneLine(item.text)}`;
    case "tool_call":
      return `tool ${item.name} called`;
    case "tool_result":
      // The body is never read: only the tool's name and outcome survive.
      return `tool ${item.name} → ${item.isError ? "error" : "ok"}`;
    default:
      return undefined;
  }
}

function recentTurnGists(items: readonly TranscriptItem[], turns: number): string[] {
  const starts: number[] = [];
  items.forEach((item, index) => {
    if (item.kind === "user") starts.push(index);
  });
  const from = starts.length > turns ? (starts[starts.length - turns] ?? 0) : 0;
  return items.slice(from).flatMap((item) => gist(item) ?? []);
}

/** Keeps the newest lines that fit, in their original order. */
function newestThatFit(lines: readonly string[], budget: number): string[] {
  const kept: string[] = [];
  let used = 0;
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = `- ${lines[i] ?? ""}\n`;
    const size = utf8Length(line);
    if (used + size > budget) break;
    kept.unshift(line);
    used += size;
  }
  return kept;
}

export function buildHandoff(items: readonly TranscriptItem[], options: HandoffOptions = {}): string {
  const maxBytes = options.maxBytes ?? DEFAULT_HANDOFF_MAX_BYTES;
  const lineBytes = options.lineBytes ?? DEFAULT_LINE_BYTES;
  const line = (text: string) => truncateUtf8(oneLine(text), lineBytes);

  // Without a task named, the latest request stands in, not the session's first: a first cue
  // ("Your team is currently empty") is stale for an agent that has worked on since.
  const taskItem = items.find((i) => i.kind === "task") ?? items.findLast((i) => i.kind === "user");
  const task =
    taskItem && "text" in taskItem
      ? truncateUtf8(oneLine(taskItem.text), lineBytes * 4)
      : "(no task recorded)";
  const sections: Array<[title: string, lines: string[]]> = [
    ["Open work", openWork(items).map(line)],
    ["Decisions", items.flatMap((i) => (i.kind === "decision" ? [line(i.text)] : []))],
    ["Recent turns", recentTurnGists(items, options.recentTurns ?? DEFAULT_RECENT_TURNS).map(line)],
  ];

  // Priority order: task, open work, decisions, recent turns; each keeps its newest lines.
  let out = `${HEADER}\n## Task\n${task}\n`;
  for (const [title, lines] of sections) {
    if (lines.length === 0) continue;
    const heading = `\n## ${title}\n`;
    const room = maxBytes - utf8Length(out) - utf8Length(heading);
    const kept = newestThatFit(lines, room);
    if (kept.length > 0) out += heading + kept.join("");
  }
  // The cap is hard even when the header and task alone exceed it.
  return truncateUtf8(out, maxBytes);
}
