// The context policy of a harness that runs its agent loop in its own process (Claude Code, Codex):
// the live SessionContext (controller, latch, digest, snapshot) fed from the translated events, and
// the transcript items a rollover's handoff is built from (MC-8, MC-9). The harness adapter decides
// which compaction path an event belongs to and performs the actions; the rules stay in context/.
import type { OwnLoopHarness } from "@cadre/model";
import { countTokens } from "../tokens.js";
import {
  buildHandoff,
  type CompactionPath,
  type SendPreparation,
  type TranscriptItem,
} from "../context/index.js";
import type { SessionBootstrap } from "../session/harness-session.js";
import { SessionContext } from "../session/session-context.js";
import type { AgentEvent, ContextSnapshot, EventOf, ModelInfo } from "../types.js";
import { EventTranscript } from "./event-transcript.js";
import { BOOTSTRAP_SEPARATOR, boundItems } from "./pi/transcript.js";

export interface HarnessContextOptions {
  harness: OwnLoopHarness;
  model: ModelInfo;
  /** Explicit user override of the 90% daily threshold (MC-8). */
  thresholdOverride?: number;
  /** What earlier wakes of the agent's session left: handoffs and self-heals are built from it too. */
  digest?: readonly TranscriptItem[];
}

export interface Rollover {
  /** The fresh window's first input: the handoff, then this send's prompt. */
  prompt: string;
  event: EventOf<"rollover">;
}

export class HarnessContext {
  readonly session: SessionContext;
  readonly transcript: EventTranscript;
  #compactionOpen = false;

  constructor(options: HarnessContextOptions) {
    this.transcript = new EventTranscript(options.digest);
    this.session = new SessionContext({
      harness: options.harness,
      model: options.model,
      ...(options.thresholdOverride !== undefined ? { thresholdOverride: options.thresholdOverride } : {}),
    });
  }

  /** A compaction_start was consumed and its compaction_end was not (yet). */
  get compactionOpen(): boolean {
    return this.#compactionOpen;
  }

  /** MC-9: every product turn starts idle, so each send is an idle direct send through the same preparation. */
  prepareSend(): SendPreparation {
    return this.session.prepareSend(true);
  }

  /** Compaction events go to the controller (one classifier, MC-9); every event feeds the transcript. */
  observe(event: AgentEvent, path: CompactionPath): void {
    if (event.type === "compaction_start") {
      this.#compactionOpen = true;
      this.session.consume(event, { path });
    } else if (event.type === "compaction_end") {
      this.#compactionOpen = false;
      this.session.consume(event, { path });
    }
    this.transcript.record(event);
  }

  /**
   * MC-9 rollover: the caller has closed the old native window (it is never resumed); the handoff
   * is built by code from the transcript (no model call, no tool_result bodies), and this send's
   * prompt follows it in the fresh window.
   */
  rollover(prompt: string, reason: string): Rollover {
    const handoff = buildHandoff(this.transcript.items());
    const tokensBefore = this.session.tokensInWindow;
    const text = `${handoff}${BOOTSTRAP_SEPARATOR}${prompt}`;
    // An estimate until the fresh window's first model call reports real usage.
    const tokensAfter = countTokens(text);
    this.transcript.rebase();
    this.session.rolloverCompleted(tokensAfter);
    return {
      prompt: text,
      event: {
        type: "rollover",
        reason,
        handoffBytes: Buffer.byteLength(handoff, "utf8"),
        tokensBefore,
        tokensAfter,
      },
    };
  }

  /**
   * The window was closed before this session object existed (a rollover left for the next wake,
   * a model switch's handoff, MC-9/MC-13): the fresh native session's first input carries its
   * handoff, and the rollover is reported with this send.
   */
  bootstrap(prompt: string, boot: SessionBootstrap): Rollover {
    const text = `${boot.handoff}${BOOTSTRAP_SEPARATOR}${prompt}`;
    const tokensAfter = countTokens(text);
    this.transcript.rebase(boot.items);
    this.session.rolloverCompleted(tokensAfter);
    return {
      prompt: text,
      event: {
        type: "rollover",
        reason: boot.reason,
        handoffBytes: Buffer.byteLength(boot.handoff, "utf8"),
        ...(boot.tokensBefore !== undefined ? { tokensBefore: boot.tokensBefore } : {}),
        tokensAfter,
        ...(boot.fromSession !== undefined ? { fromSession: boot.fromSession } : {}),
      },
    };
  }

  /**
   * The one self-heal of a resume that cannot work (the harness has no such session): a fresh native
   * window with this send's prompt, after a handoff of what the agent's session saw before it (the
   * digest earlier wakes left, and this session's own items; none when this prompt is all there is:
   * the history then lives only in the lost native session). Counted as a rollover, so the run says
   * it happened; the handoff's items stay the fresh window's memory (the next wake's digest).
   */
  heal(prompt: string, reason: string, fromSession?: string): Rollover {
    const items = [...this.transcript.items()];
    const last = items.at(-1);
    if (last?.kind === "user" && last.text === prompt) items.pop();
    const bounded = boundItems(items);
    const handoff = bounded.length > 0 ? buildHandoff(bounded) : "";
    const text = handoff === "" ? prompt : `${handoff}${BOOTSTRAP_SEPARATOR}${prompt}`;
    const tokensBefore = this.session.tokensInWindow;
    const tokensAfter = countTokens(text);
    this.transcript.rebase(bounded);
    this.transcript.prompt(prompt);
    this.session.rolloverCompleted(tokensAfter);
    return {
      prompt: text,
      event: {
        type: "rollover",
        reason,
        handoffBytes: Buffer.byteLength(handoff, "utf8"),
        tokensBefore,
        tokensAfter,
        ...(fromSession !== undefined ? { fromSession } : {}),
      },
    };
  }

  /** The bounded digest of the agent's session so far (no tool result bodies). */
  digest(): TranscriptItem[] {
    return boundItems(this.transcript.items());
  }

  snapshot(sessionId?: string): ContextSnapshot {
    return this.session.snapshot([], sessionId !== undefined ? { sessionId } : {});
  }
}
