// What a session object says about its native session when a wake ends, harness-neutral: which
// native session the next wake continues (a Pi session file, a Claude Code session id, a Codex
// thread id), whether this object resumed one, rolled over or healed a failed resume, the handoff a
// closed window left for the next one, and the bounded digest a later self-heal or model-switch
// handoff is built from. The host persists it per agent (the store's agent_sessions); the rollover
// latch is never part of it (MC-9: the latch lives in the live controller only).
import type { HarnessKind, TranscriptItem } from "../context/index.js";

/** A handoff a fresh native session starts from (MC-9 rollover, MC-13 switch, a self-heal). */
export interface SessionBootstrap {
  /** The code-built handoff, sent before the first prompt of the fresh session. */
  handoff: string;
  /** What it was built from: the fresh window's memory, carried into the next handoff. */
  items: readonly TranscriptItem[];
  /** Why the old window was closed; the rollover event of the first send says it. */
  reason: string;
  /** The native session it replaces, when there was one. */
  fromSession?: string;
  /** Tokens in the window that was closed. */
  tokensBefore?: number;
}

/** A native session to continue, as the harness names it. */
export interface NativeSessionRef {
  id: string;
  /** Pi: the session file. */
  file?: string;
}

export interface HarnessSessionState {
  harness: HarnessKind;
  /** The native session the next wake continues; undefined when there is none to continue. */
  ref: NativeSessionRef | undefined;
  /** This object continued a native session that existed before it. */
  resumed: boolean;
  /** This object closed a window and started a fresh one from a handoff. */
  rolledOver: boolean;
  /** Why a resume failed and was healed once from the digest, when it was. */
  selfHealed?: string;
  /** A closed window's handoff the next native session starts from (no session to resume then). */
  pendingBootstrap?: SessionBootstrap;
  /** Bounded transcript items of the agent's session so far (no tool result bodies). */
  digest: TranscriptItem[];
  model: string;
  tokensInWindow: number;
  /** Pi: compaction.reserveTokens frozen at the last start/resume (MC-8). */
  reserveTokens?: number;
  /** MC-15: cumulative vendor counters last seen for the native session (Codex thread totals). */
  vendorTotals?: VendorTotals;
}

/** A vendor's cumulative counters as it reports them (Codex: input, cached, output tokens of a thread). */
export type VendorTotals = Readonly<Record<string, number>>;

/** Where a session object is told to continue from (what the host persisted last time). */
export interface SessionContinuation {
  /** The native session to resume; it is verified before anything is sent. */
  resume?: NativeSessionRef;
  /** Start a fresh native session from this handoff instead. */
  bootstrap?: SessionBootstrap;
  /** The agent's bounded digest: a failed resume heals once from it. */
  digest?: readonly TranscriptItem[];
  /** Tokens the resumed window held at the end of the last turn (display and MC-13 only, never a latch). */
  tokensInWindow?: number;
  /** MC-15: the resumed native session's cumulative vendor counters at the end of the last turn. */
  vendorTotals?: VendorTotals;
}

/** The handoff a self-heal starts from: the digest, said to be one. */
export function selfHealReason(harness: HarnessKind, id: string, why: string): string {
  const said = why.replace(/\s+/g, " ").trim();
  return `${harness} session ${id} could not be resumed (${said}); a fresh session starts from the handoff digest, once`;
}
