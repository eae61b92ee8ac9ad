// The context policy of a harness that runs its agent loop in its own process (Claude Code, Codex):
// the live SessionContext (controller, latch, digest, snapshot) fed from the translated events, and
// the transcript items a rollover's handoff is built from (MC-8, MC-9). The harness adapter decides
// which compaction path an event belongs to and performs the actions; the rules stay in context/.
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { buildHandoff, type CompactionPath, type SendPreparation } from "../context/index.js";
import { SessionContext } from "../session/session-context.js";
import type { AgentEvent, ContextSnapshot, EventOf, ModelInfo } from "../types.js";
import { EventTranscript } from "./event-transcript.js";

export interface HarnessContextOptions {
  harness: "claude-code" | "codex";
  model: ModelInfo;
  /** Explicit user override of the 90% daily threshold (MC-8). */
  thresholdOverride?: number;
}

export interface Rollover {
  /** The fresh window's first input: the handoff, then this send's prompt. */
  prompt: string;
  event: EventOf<"rollover">;
}

export class HarnessContext {
  readonly session: SessionContext;
  readonly transcript = new EventTranscript();
  #compactionOpen = false;

  constructor(options: HarnessContextOptions) {
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
    const text = `${handoff}\n---\n\n${prompt}`;
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
   * The one self-heal of a resume that cannot work (the harness has no such session): a fresh native
   * window with this send's prompt, after a handoff of what this session itself saw before it (none
   * when this prompt is all it has: the history then lives only in the lost native session). Counted
   * as a rollover, so the run says it happened.
   */
  heal(prompt: string, reason: string): Rollover {
    const items = [...this.transcript.items()];
    const last = items.at(-1);
    if (last?.kind === "user" && last.text === prompt) items.pop();
    const handoff = items.length > 0 ? buildHandoff(items) : "";
    const text = handoff === "" ? prompt : `${handoff}\n---\n\n${prompt}`;
    const tokensBefore = this.session.tokensInWindow;
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

  snapshot(): ContextSnapshot {
    return this.session.snapshot();
  }
}
