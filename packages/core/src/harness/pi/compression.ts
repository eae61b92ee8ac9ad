// MC-12 in a Pi session: the one compression decision over the request about to be sent (its bytes
// measured in process, its oversized inline images known), and what the decision does — strip the
// images in the transcript, ask for the handoff rebuild through the one rollover latch, or fail
// closed. No model call either way. The caller says what a refusal means for its call.
import type { AgentMessage } from "@mariozechner/pi-agent-core";
import { type CompressionTrigger, decideCompression } from "../../context/index.js";
import { utf8Length } from "../../context/utf8-bytes.js";
import type { SessionContext } from "../../session/session-context.js";
import type { AgentEvent, EventOf } from "../../types.js";
import { type PiByteBudget, RequestBytes } from "./request-bytes.js";

export type CompressionAction = "strip-images" | "handoff-rebuild" | "fail-closed";

export class PiCompression {
  readonly #bytes: RequestBytes;
  readonly #fixed: () => string;
  #fixedBytes: number | undefined;

  /** `fixed`: what every request carries besides its messages (system prompt and tools), read once. */
  constructor(budget: PiByteBudget, fixed: () => string) {
    this.#bytes = new RequestBytes(budget);
    this.#fixed = fixed;
  }

  /**
   * Decides over `messages` and acts; returns the action taken (none: undefined). A handoff rebuild
   * latches the rollover (once: a latched session is not decided again); a fail closed is for the
   * caller to enforce (the request must not go out).
   */
  decide(
    trigger: Exclude<CompressionTrigger, "open">,
    messages: readonly AgentMessage[],
    context: SessionContext,
    emit: ((event: AgentEvent) => void) | undefined,
    terminalOverflow = false,
  ): { action: CompressionAction; reason: string } | undefined {
    this.#fixedBytes ??= utf8Length(this.#fixed());
    const measured = this.#bytes.measure(this.#fixedBytes, messages);
    const controller = context.controller;
    const decision = decideCompression({
      harness: "pi",
      remote: controller.remote,
      trigger,
      byteBudget: { limit: this.#bytes.limit, used: measured.bytes },
      occupancy: controller.occupancy(),
      terminalOverflow,
      deterministicCompactFailure:
        controller.needsRollover && controller.digest().lastResult === "deterministic",
      strippableImages: measured.images.map(({ id, bytes }) => ({ id, bytes })),
    });
    if (decision.action === "none") return undefined;
    if (decision.action === "handoff-rebuild" && context.needsRollover) return undefined; // decided already
    const event: EventOf<"compression"> = {
      type: "compression",
      trigger,
      action: decision.action,
      reason: decision.reason, // MC-12
      bytes: measured.bytes,
      byteLimit: this.#bytes.limit,
    };
    if (decision.action === "strip-images") {
      const ids = new Set(decision.imageIds);
      const images = measured.images.filter((image) => ids.has(image.id));
      this.#bytes.strip(images);
      event.strippedImages = images.length;
      event.bytesFreed = measured.bytes - this.#bytes.measure(this.#fixedBytes, messages).bytes;
    }
    emit?.(event);
    if (decision.action === "handoff-rebuild") context.requestRollover(event.reason);
    return { action: decision.action, reason: event.reason };
  }
}
