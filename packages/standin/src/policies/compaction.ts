// Harness compaction requests, recognised and answered the way the harnesses need (seen on the
// real binaries, /tmp/r22/FINDINGS.md §1.4, §2.5):
// - Claude Code's /compact (and auto-compact) asks, in the last user text, to "create a detailed
//   summary of the conversation"; without a <summary> block it asks again, so the answer has one.
// - Codex marks its compaction request in `x-codex-turn-metadata` (`request_kind: "compaction"`) and
//   its prompt says "CONTEXT CHECKPOINT COMPACTION".
// The summary lists the tool calls made so far on one line (`Stand-in actions so far: …`), so a
// policy reading the compacted conversation later still knows what it did (as a model would from
// its own summary) and never repeats a hire after a compaction.
import type { StandinRequest } from "../types.js";
import { lastUserText, toolExchanges } from "./conversation.js";

const ACTIONS = "Stand-in actions so far:";

export function isCompactionRequest(request: StandinRequest): boolean {
  const meta = request.headers["x-codex-turn-metadata"];
  if (meta && /"request_kind"\s*:\s*"compaction"/.test(meta)) return true;
  const text = lastUserText(request);
  return (
    /create a detailed summary of the conversation/i.test(text) || /CONTEXT CHECKPOINT COMPACTION/.test(text)
  );
}

/** A tool call the conversation shows, directly or through an earlier stand-in summary. */
export interface PastCall {
  /** Qualified tool name. */
  tool: string;
  /** The call's `name` argument ("" when it has none). */
  name: string;
  outcome: "ok" | "refused" | "pending";
  /** The result text, when the call itself (not a summary) is in the conversation. */
  result?: string;
}

const CALL = /^(\S+)\((.*)\) (ok|refused|pending)$/;

export function pastCalls(request: StandinRequest): PastCall[] {
  const summarised: PastCall[] = request.messages
    .flatMap((m) => m.content)
    .flatMap((b) => (b.type === "text" ? b.text.split("\n") : []))
    .filter((line) => line.includes(ACTIONS))
    .flatMap((line) => line.slice(line.indexOf(ACTIONS) + ACTIONS.length).split(";"))
    .flatMap((s) => {
      const m = CALL.exec(s.trim());
      return m ? [{ tool: m[1] as string, name: m[2] as string, outcome: m[3] as PastCall["outcome"] }] : [];
    });
  const direct: PastCall[] = toolExchanges(request).map((e) => {
    const arg = (e.input as { name?: unknown } | null)?.name;
    return {
      tool: e.name,
      name: typeof arg === "string" ? arg : "",
      outcome: !e.result ? "pending" : e.result.isError ? "refused" : "ok",
      ...(e.result ? { result: e.result.content } : {}),
    };
  });
  // One entry per tool and name; the call itself wins over a summary's line about it.
  const byKey = new Map<string, PastCall>();
  for (const c of [...summarised, ...direct]) byKey.set(`${c.tool}\u0000${c.name}`, c);
  return [...byKey.values()];
}

export function compactionSummary(request: StandinRequest): string {
  const calls = pastCalls(request).map((c) => `${c.tool}(${c.name}) ${c.outcome}`);
  return [
    "<analysis>Stand-in summary (offline, not a real model).</analysis>",
    "<summary>",
    "1. Primary Request: the conversation so far, summarised by the stand-in model server.",
    `${ACTIONS} ${[...new Set(calls)].join("; ") || "none"}`,
    "</summary>",
  ].join("\n");
}
