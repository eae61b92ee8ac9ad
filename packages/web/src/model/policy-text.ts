// One readable line for each context-policy event core emits (rollover, recovery, compression) and
// for the end-of-turn context snapshot. Core's reasons are shown verbatim: they name the rule
// (MC-9..MC-12) that decided, which is what an operator needs to tell a bug from a policy.
import type { AgentEvent, ContextSnapshot } from "../api/types.js";
import { formatBytes, formatPercent, formatTokens } from "./format.js";

type Of<T extends AgentEvent["type"]> = Extract<AgentEvent, { type: T }>;

function tokenChange(before: number | undefined, after: number | undefined): string {
  return before !== undefined && after !== undefined
    ? ` · ${formatTokens(before)} → ${formatTokens(after)} tokens`
    : "";
}

export function rolloverText(e: Of<"rollover">): string {
  return `context rolled over to a fresh window: ${e.reason} · handoff ${formatBytes(e.handoffBytes)}${tokenChange(e.tokensBefore, e.tokensAfter)}`;
}

/** Which native session the turn ran in: a new one, the agent's own resumed, or one healed after a failed resume. */
export function sessionText(e: Of<"session">): string {
  const id = e.id !== undefined ? ` ${e.id}` : "";
  if (e.action === "resumed") return `session: resumed the agent's ${e.harness} session${id}`;
  if (e.action === "started")
    return `session: started a new ${e.harness} session${id}${e.reason ? ` — ${e.reason}` : ""}`;
  return `session: could not resume ${e.previousId ?? "the agent's session"}; healed once — ${e.reason ?? ""}`;
}

/** A replay lets the run go on; failing closed reports the failure and never resends. */
export function recoveryText(e: Of<"recovery">): string {
  return e.action === "replay"
    ? `recovery: replaying the failed message once — ${e.reason}`
    : `recovery: not replayed — ${e.reason}`;
}

const TRIGGER: Record<Of<"compression">["trigger"], string> = {
  "next-send": "before the next send",
  "terminal-error": "after a terminal error",
};

export function compressionText(e: Of<"compression">): string {
  const action =
    e.action === "strip-images"
      ? `stripped ${e.strippedImages ?? "oversized"} inline image${e.strippedImages === 1 ? "" : "s"}${e.bytesFreed !== undefined ? ` (${formatBytes(e.bytesFreed)} freed)` : ""}`
      : e.action === "handoff-rebuild"
        ? "handing off to a fresh window"
        : "failed closed";
  const size =
    e.bytes !== undefined && e.byteLimit !== undefined
      ? ` · request ${formatBytes(e.bytes)} of ${formatBytes(e.byteLimit)}`
      : "";
  return `compression ${TRIGGER[e.trigger]}: ${action} — ${e.reason}${size}`;
}

/** The controller at the end of the last turn: how full the window is and whether a rollover is due. */
export function contextText(s: ContextSnapshot): string {
  const threshold = `compacts at ${formatPercent(s.threshold, 0)}${s.thresholdSource === "override" ? " (override)" : ""}`;
  // A remote session never holds the latch, only a note of why it would have (MC-9).
  const latch = s.needsRollover
    ? `rollover latch set: ${s.latchReason ?? "no reason given"}`
    : `rollover latch clear${s.latchReason ? ` (${s.remote ? "remote session, " : ""}noted: ${s.latchReason})` : ""}`;
  return `${formatPercent(s.occupancy)} of ${formatTokens(s.contextWindow)} tokens · ${threshold} · ${latch}`;
}

const HARNESS_NAME: Record<Of<"harness_tools">["harness"], string> = {
  "claude-code": "Claude Code",
  codex: "Codex",
  pi: "Pi",
};

/** What the harness said it offers the model at the start of the run, and whether that was the decision. */
export function harnessToolsText(e: Of<"harness_tools">): string {
  const servers = e.mcpServers.map((s) => `MCP ${s.name}: ${s.status}`).join(" · ");
  const offered = `${HARNESS_NAME[e.harness]} offers ${e.tools.length === 0 ? "no tools" : e.tools.join(", ")}${servers ? ` · ${servers}` : ""}`;
  return e.problem === undefined ? `${offered} — as the company decided` : `${offered} — ${e.problem}`;
}

/** MC-14: a claim held the turn open for work still running; how it ended. */
export function continuationText(e: Of<"continuation">): string {
  const attempt = e.attempt !== undefined ? ` (continuation ${e.attempt})` : "";
  switch (e.action) {
    case "opened":
      return `work still running: continuation turn opened to wait for it${attempt} — ${e.reason}`;
    case "settled":
      return `the running work finished${attempt} — ${e.reason}`;
    default:
      return `lost handle: the running work could not be proven to survive${attempt} — ${e.reason}`;
  }
}
