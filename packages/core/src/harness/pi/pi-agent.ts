// The Pi harness: a BaseAgent over @mariozechner/pi-agent-core's Agent. Pi runs the agent loop
// (model call → tool calls → results → next call); we adapt tools in, and translate events out.
import { Agent, type AgentMessage, type AgentTool, type StreamFn } from "@mariozechner/pi-agent-core";
import { type AssistantMessage, type Message, streamSimple } from "@mariozechner/pi-ai";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { BaseAgent, type Emit, type SessionConfig, type TurnOutcome } from "../../agent/base-agent.js";
import type { ToolDefinition } from "../../agent/tool.js";
import {
  buildHandoff,
  type CompressionTrigger,
  decideCompression,
  type ModelSwitchVerdict,
  SessionLock,
  switchModel,
} from "../../context/index.js";
import { utf8Length } from "../../context/utf8-bytes.js";
import { errorMessage, UserInputError } from "../../errors.js";
import { placeAnthropicCacheBreakpoints } from "../../prompt/anthropic-breakpoints.js";
import type { PromptSegment } from "../../prompt/assemble.js";
import {
  type ModelCallPrefix,
  PromptPrefixChangedError,
  StablePrefixGuard,
} from "../../prompt/prefix-guard.js";
import { type ProductTurn, ProductTurns } from "../../session/product-turns.js";
import { describeProviderError } from "../../session/provider-error.js";
import { decideRecovery, TurnEvidenceTracker } from "../../session/recovery.js";
import { SessionContext } from "../../session/session-context.js";
import type { AgentEvent, ContextSnapshot, EventOf, ModelInfo } from "../../types.js";
import { type Compactor, digestCompactor, PI_HANDOFF_OPTIONS } from "./compactor.js";
import { compactionCut, estimateTokens, PiWindow } from "./context-window.js";
import { createPiTranslatorState, translatePiEvent } from "./translate.js";
import { type PiRoute, toPiModel } from "./pi-model.js";
import { DEFAULT_PROMPT_TIMEOUT_MS, rehearsalPromptTimeoutOf, withPromptTimeout } from "./prompt-timeout.js";
import { DEFAULT_PI_BYTE_BUDGET, type PiByteBudget, RequestBytes } from "./request-bytes.js";

export interface PiAgentOptions {
  route?: PiRoute;
  /** Replaces the provider call (the offline scripted model, or a recorded cassette). */
  streamFn?: StreamFn;
  /** Resolves the API key for a provider at call time; keys never live in config or the store. */
  getApiKey?: (provider: string) => string | undefined;
  /** The assembled prompt's segments: every model call's system prompt is checked against them, segment by segment (MC-3). */
  segments?: readonly PromptSegment[];
  /** Called once per model call, after its stable prefix passed the check, with the prefix hashes. */
  onModelCall?: (prefix: ModelCallPrefix) => void;
  /** Explicit user override of the compaction threshold, a fraction in (0, 1] (MC-8); default 90%. */
  compactThreshold?: number;
  /** Pi's native compaction step (MC-8); default: a code-built digest, no model call. */
  compactor?: Compactor;
  /**
   * MC-11: a model call that produces nothing for this long is aborted, and the next send starts
   * from a handoff. Default 10 minutes; connectors override it with `config.promptTimeoutMs`.
   */
  promptTimeoutMs?: number;
  /** MC-12: the request byte budget and what counts as an oversized inline image. */
  byteBudget?: Partial<PiByteBudget>;
}

function positive(name: string, value: number | undefined): void {
  if (value !== undefined && !(typeof value === "number" && Number.isFinite(value) && value > 0)) {
    throw new UserInputError(
      `${name} must be a positive number (got ${typeof value === "number" ? value : JSON.stringify(value)})`,
    );
  }
}

/** Thrown inside the model-call preparation when the compression decision fails closed (MC-12). */
class CompressionRefused extends Error {}

/** The one factory point where company tools become Pi tools. */
export function toPiTool(tool: ToolDefinition): AgentTool {
  return {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    parameters: tool.parameters,
    // Our strict validation runs before Pi's lenient coercion, so a wrong type is reported as
    // such instead of being silently coerced. A throw here becomes an error tool result.
    prepareArguments: (raw: unknown) => {
      const result = tool.validate(raw);
      if (!result.ok) throw new Error(result.message);
      return result.value;
    },
    execute: async (toolCallId, params, signal) => {
      const outcome = await tool.execute(params, { toolCallId, signal });
      // Pi marks a tool result as an error only when execute throws; keep our content for the model.
      if (outcome.isError)
        throw new ToolRefusal(outcome.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"));
      return { content: outcome.content, details: outcome.details };
    },
    executionMode: "sequential",
  };
}

class ToolRefusal extends Error {}

function isAssistant(message: AgentMessage | undefined): message is AssistantMessage {
  return (
    typeof message === "object" && message !== null && (message as { role?: unknown }).role === "assistant"
  );
}

export class PiAgent extends BaseAgent {
  private readonly agent: Agent;
  private readonly translator = createPiTranslatorState();
  private emitCurrent: Emit | undefined;
  private readonly prefixGuard: StablePrefixGuard;
  // Context policy (MC-8..MC-14): the live controller, the native window, the lock shared by
  // set-model and send, the product-turn ledger and the replay gate's evidence.
  readonly #context: SessionContext;
  readonly #window = new PiWindow();
  readonly #lock = new SessionLock();
  readonly #turns: ProductTurns;
  readonly #evidence = new TurnEvidenceTracker();
  readonly #compactor: Compactor;
  #route: PiRoute | undefined;
  #callsInTurn = 0;
  #recovering = false;
  #compacting = false;
  /** Events of work done between turns (a model switch's handoff), reported with the next turn. */
  #pending: AgentEvent[] = [];
  #baseTokens: number | undefined;
  #baseBytes: number | undefined;
  readonly #bytes: RequestBytes;
  /** Failed calls our prompt timeout produced (MC-11): recognised by identity, never by their text. */
  readonly #timedOut = new WeakSet<object>();
  /** Why the compression decision refused this turn's call, when it did (MC-12). */
  #refused: string | undefined;

  constructor(config: SessionConfig, options: PiAgentOptions = {}) {
    super(config);
    if (
      options.compactThreshold !== undefined &&
      !(
        Number.isFinite(options.compactThreshold) &&
        options.compactThreshold > 0 &&
        options.compactThreshold <= 1
      )
    ) {
      throw new UserInputError(
        `compaction threshold must be a fraction in (0, 1], e.g. 0.9 (got ${options.compactThreshold})`,
      );
    }
    positive("Pi prompt timeout (config.promptTimeoutMs, in ms)", options.promptTimeoutMs);
    positive("request byte budget (byteBudget.requestBytes)", options.byteBudget?.requestBytes);
    positive(
      "oversized image size (byteBudget.oversizedImageBytes)",
      options.byteBudget?.oversizedImageBytes,
    );
    this.#bytes = new RequestBytes({ ...DEFAULT_PI_BYTE_BUDGET, ...options.byteBudget });
    const promptTimeoutMs =
      options.promptTimeoutMs ?? rehearsalPromptTimeoutOf(options.streamFn) ?? DEFAULT_PROMPT_TIMEOUT_MS;
    this.#context = new SessionContext({
      harness: "pi",
      model: config.model,
      ...(options.compactThreshold !== undefined ? { thresholdOverride: options.compactThreshold } : {}),
    });
    this.#turns = new ProductTurns(config.sessionId);
    this.#compactor = options.compactor ?? digestCompactor;
    this.#route = options.route;
    this.prefixGuard = new StablePrefixGuard(options.segments);
    const inner = options.streamFn ?? streamSimple;
    const onModelCall = options.onModelCall;
    // Every model call runs under the Pi prompt timeout (MC-11).
    const timed: StreamFn = (model, context, streamOptions) =>
      withPromptTimeout(
        model,
        promptTimeoutMs,
        streamOptions?.signal,
        (signal) => inner(model, context, { ...streamOptions, signal }),
        (failed) => this.#timedOut.add(failed),
      );
    // Every model call passes the stable-prefix check first (MC-3): a drifted system prompt or tool
    // list fails the turn closed, with an error event, before anything reaches the provider.
    const guarded: StreamFn = (model, context, streamOptions) => {
      let prefix: ModelCallPrefix;
      try {
        prefix = this.prefixGuard.check(context.systemPrompt ?? "", context.tools ?? []);
      } catch (error) {
        if (error instanceof PromptPrefixChangedError)
          this.emitCurrent?.({ type: "error", message: error.message, code: error.code });
        throw error;
      }
      onModelCall?.(prefix);
      if (model.api !== "anthropic-messages") return timed(model, context, streamOptions);
      const onPayload = streamOptions?.onPayload;
      return timed(model, context, {
        ...streamOptions,
        onPayload: async (payload, m) =>
          placeAnthropicCacheBreakpoints((await onPayload?.(payload, m)) ?? payload),
      });
    };
    this.agent = new Agent({
      initialState: {
        systemPrompt: config.systemPrompt,
        model: toPiModel(config.model, options.route),
        thinkingLevel: "off",
        tools: config.tools.map(toPiTool),
      },
      sessionId: config.sessionId,
      toolExecution: "sequential",
      streamFn: guarded,
      // Before every model call: Pi's native compaction and the unhealthy-session preparation.
      transformContext: (messages, signal) => this.#beforeModelCall(messages, signal),
      ...(options.getApiKey ? { getApiKey: options.getApiKey } : {}),
    });
    this.agent.subscribe((event) => {
      const emit = this.emitCurrent;
      if (!emit) return; // late events of a finished turn change nothing (MC-14)
      // Occupancy from each successful call's real usage (MC-8); a failed call reports no window.
      if (
        event.type === "message_end" &&
        isAssistant(event.message) &&
        event.message.stopReason !== "error" &&
        event.message.stopReason !== "aborted"
      ) {
        this.#context.observeUsage(event.message.usage);
      }
      for (const translated of translatePiEvent(event, this.translator)) emit(translated);
      // Pi awaits its listeners: a consumer that fell behind pauses Pi's reading of the provider.
      return this.roomForEvents();
    });
  }

  /** The session's context state now (what `cadre sessions inspect` shows for a finished run). */
  get contextState(): ContextSnapshot {
    return this.#context.snapshot(this.#turns.openClaims());
  }

  /** The model this session routes to now (it changes only through setModel). */
  get model(): ModelInfo {
    return this.#context.model;
  }

  /**
   * MC-13: switch the session to `target`, assessed inside the lock shared with send against the
   * target's window. Fits → new route. At or over 90% of the target window → a code-built handoff
   * into a fresh window first, then the new route (the old native window is never resumed). A
   * running turn or a recovery in flight → refused (fail closed), nothing changes.
   */
  setModel(target: ModelInfo, route?: PiRoute): Promise<ModelSwitchVerdict> {
    return switchModel(this.#lock, {
      snapshot: () => ({
        harness: "pi",
        tokensInWindow: this.#context.tokensInWindow,
        targetContextWindow: target.contextWindow,
        turnRunning: this.isRunning,
        remote: false,
        localHandoffAvailable: true,
        recoveryInFlight: this.#recovering,
      }),
      handoffRebuild: async () => {
        const event = this.#rollover(
          this.agent.state.messages,
          `MC-13: switch to ${target.id}: the window is at or over 90% of its ${target.contextWindow}-token window; rebuilt from a handoff first`,
        );
        this.#materializeWindow();
        this.#pending.push(event);
      },
      route: async () => {
        this.agent.state.model = toPiModel(target, route ?? this.#route);
        if (route) this.#route = route;
        this.#context.switchModel(target);
      },
    });
  }

  protected override contextSnapshot(): ContextSnapshot | undefined {
    return this.contextState;
  }

  /** transformContext: runs before every model call, inside the session lock (MC-13). */
  #beforeModelCall(messages: AgentMessage[], signal?: AbortSignal): Promise<AgentMessage[]> {
    return this.#lock.run(async () => {
      this.#callsInTurn += 1;
      // MC-12: the one compression decision at the next send (the session's opening never runs it).
      this.#compress("next-send", messages);
      // MC-8: Pi compacts natively at contextWindow − reserveTokens (frozen at start/resume).
      if (!this.#context.needsRollover && this.#context.tokensInWindow >= this.#context.compactAt) {
        await this.#compact(messages, "threshold", signal);
      }
      // MC-9: the unhealthy-session preparation; an idle direct send (the turn's first call) passes it too.
      const preparation = this.#context.prepareSend(this.#callsInTurn === 1);
      if (preparation.action === "rollover-then-send")
        this.emitCurrent?.(this.#rollover(messages, preparation.reason));
      return this.#window.view(messages);
    });
  }

  /** Pi's native compaction of the window (MC-8): events consumed for usage, UI and the digest. True when it rebuilt the window. */
  async #compact(
    messages: AgentMessage[],
    reason: "threshold" | "overflow",
    signal?: AbortSignal,
  ): Promise<boolean> {
    const view = this.#window.view(messages);
    const cut = compactionCut(view, (m) => this.#window.isBootstrap(m));
    if (cut === undefined) return false; // nothing before the latest exchange: Pi has nothing to compact
    const emit = this.emitCurrent;
    const start: AgentEvent = { type: "compaction_start", reason };
    emit?.(start);
    this.#context.consume(start);
    const items = this.#window.items(view.slice(0, cut));
    const tokensBefore = this.#context.tokensInWindow;
    let reply: Awaited<ReturnType<Compactor>>;
    this.#compacting = true;
    try {
      reply = await this.#compactor({ reason, items, ...(signal ? { signal } : {}) });
    } catch (error) {
      reply = { error: errorMessage(error) };
    } finally {
      this.#compacting = false;
    }
    let end: EventOf<"compaction_end">;
    let details: { status?: number; code?: string } = {};
    if ("summary" in reply && reply.summary.trim() !== "") {
      this.#window.rebase(this.#window.absoluteIndex(cut), reply.summary, items);
      end = {
        type: "compaction_end",
        ok: true,
        summary: reply.summary,
        tokensBefore,
        tokensAfter: this.#windowTokens(messages),
      };
    } else if ("summary" in reply) {
      end = {
        type: "compaction_end",
        ok: false,
        summary: reply.summary,
        error: "the compaction returned an empty summary",
        tokensBefore,
      };
    } else {
      const failure = describeProviderError(reply.error);
      details = {
        ...(failure.status !== undefined ? { status: failure.status } : {}),
        ...(failure.code !== undefined ? { code: failure.code } : {}),
      };
      end = { type: "compaction_end", ok: false, error: reply.error, tokensBefore };
    }
    emit?.(end);
    // The one classifier decides: deterministic latches, transient retries natively next call (MC-9).
    this.#context.consume(end, details);
    return end.ok;
  }

  /**
   * MC-12: one decision over the live window, then its action. Strip → oversized inline images
   * become placeholders in the transcript. Handoff rebuild → the rollover latch, so the one
   * rollover path runs at this send's preparation (or the next send's, after a terminal error).
   * Fail closed at a send → an error event and the call is refused; at a terminal error the turn is
   * failing already. No model call either way.
   */
  #compress(
    trigger: Exclude<CompressionTrigger, "open">,
    messages: AgentMessage[],
    terminalOverflow = false,
  ): void {
    this.#baseBytes ??= utf8Length(this.config.systemPrompt) + utf8Length(this.#toolsJson());
    const measured = this.#bytes.measure(this.#baseBytes, this.#window.view(messages));
    const controller = this.#context.controller;
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
    if (decision.action === "none") return;
    const event: EventOf<"compression"> = {
      type: "compression",
      trigger,
      action: decision.action,
      reason: `MC-12: ${decision.reason}`,
      bytes: measured.bytes,
      byteLimit: this.#bytes.limit,
    };
    if (decision.action === "strip-images") {
      const ids = new Set(decision.imageIds);
      const images = measured.images.filter((image) => ids.has(image.id));
      this.#bytes.strip(images);
      event.strippedImages = images.length;
      event.bytesFreed =
        measured.bytes - this.#bytes.measure(this.#baseBytes, this.#window.view(messages)).bytes;
    }
    this.emitCurrent?.(event);
    if (decision.action === "handoff-rebuild") this.#context.requestRollover(event.reason);
    if (decision.action === "fail-closed" && trigger === "next-send") {
      this.#refused = event.reason;
      this.emitCurrent?.({
        type: "error",
        message: `the request was not sent: ${event.reason}`,
        code: "compression_fail_closed",
      });
      throw new CompressionRefused(event.reason);
    }
  }

  /**
   * MC-9 rollover: close the native window, write the handoff by code (no model call, no tool
   * result bodies) and bootstrap the fresh window from it. A user message not yet sent (this send's
   * prompt, or the message a replay resends) stays after the handoff.
   */
  #rollover(messages: AgentMessage[], reason: string): AgentEvent {
    const view = this.#window.view(messages);
    const last = view.at(-1);
    const keepLast =
      last !== undefined && (last as { role?: unknown }).role === "user" && !this.#window.isBootstrap(last);
    const items = this.#window.items(keepLast ? view.slice(0, -1) : view);
    const handoff = buildHandoff(items, PI_HANDOFF_OPTIONS);
    const tokensBefore = this.#context.tokensInWindow;
    this.#window.rebase(keepLast ? messages.length - 1 : messages.length, handoff, items);
    const tokensAfter = this.#windowTokens(messages);
    this.#context.rolloverCompleted(tokensAfter);
    return {
      type: "rollover",
      reason,
      handoffBytes: Buffer.byteLength(handoff, "utf8"),
      tokensBefore,
      tokensAfter,
    };
  }

  /** Estimated tokens of the window the next call sends (system prompt, tools, messages). */
  #windowTokens(messages: AgentMessage[]): number {
    this.#baseTokens ??= countTokens(this.config.systemPrompt) + countTokens(this.#toolsJson());
    return this.#baseTokens + estimateTokens(this.#window.view(messages));
  }

  /** The tool list as a request carries it (name, description, parameters), for the fixed part of a window. */
  #toolsJson(): string {
    return JSON.stringify(
      this.agent.state.tools.map((t) => ({
        name: t.name,
        description: t.description,
        parameters: t.parameters,
      })),
    );
  }

  #materializeWindow(): void {
    const next = this.#window.materialize(this.agent.state.messages);
    if (next) this.agent.state.messages = next;
  }

  /**
   * After a failed model call: the recovery rules decide (MC-10, MC-11). An explicit overflow lets
   * Pi compact natively; only a clean turn gets its ONE wire-only replay (the failed user message is
   * sent again, never added to the transcript twice). Everything else fails closed.
   */
  async #recover(
    failed: AssistantMessage,
    emit: Emit,
    turn: ProductTurn,
    signal: AbortSignal,
  ): Promise<(() => Promise<void>) | undefined> {
    const text = failed.errorMessage ?? "the model call failed";
    const empty = failed.content.every((b) => b.type === "text" && b.text === "");
    if (this.#refused !== undefined) {
      // The compression decision refused the call before it was sent (MC-12): nothing to recover.
      const reason = this.#refused;
      this.#refused = undefined;
      if (empty) this.agent.state.messages = this.agent.state.messages.slice(0, -1);
      turn.failed(reason);
      return undefined;
    }
    this.#recovering = true;
    try {
      const decision = decideRecovery({
        harness: "pi",
        error: describeProviderError(text),
        evidence: this.#evidence.evidence(),
        replaysDone: turn.attempts - 1,
        afterCompactionRollover: this.#context.needsRollover,
        promptTimeout: this.#timedOut.has(failed),
      });
      emit({ type: "recovery", action: decision.action, reason: decision.reason });
      // MC-11: a Pi prompt timeout hands off at the next send, through the one rollover path.
      if (decision.handoff) this.#context.requestRollover(decision.reason);
      let rebuilt = false;
      if (decision.kind === "context-overflow") {
        // The failed call carried nothing: drop it, as Pi does before recovering, then compact.
        if (empty) this.agent.state.messages = this.agent.state.messages.slice(0, -1);
        rebuilt = await this.#lock.run(async () => {
          const ok = await this.#compact(this.agent.state.messages, "overflow", signal);
          this.#materializeWindow();
          return ok;
        });
      }
      if (signal.aborted) {
        turn.cancel("cancelled by the operator");
        return undefined;
      }
      if (decision.action !== "replay") {
        // MC-12 at a terminal error. Timeouts and network failures never trigger it (MC-11); an
        // overflow Pi's native compaction already rebuilt (MC-8) no longer breaks the token budget.
        if (decision.kind === "context-overflow" || decision.kind === "other") {
          await this.#lock.run(async () =>
            this.#compress(
              "terminal-error",
              this.agent.state.messages,
              decision.kind === "context-overflow" && !rebuilt,
            ),
          );
        }
        turn.failed(text);
        return undefined;
      }
      turn.retry(text);
      this.#context.replayed();
      return () => this.agent.continue();
    } finally {
      this.#recovering = false;
    }
  }

  protected async execute(prompt: string, emit: Emit, signal: AbortSignal): Promise<TurnOutcome> {
    const turn = this.#turns.begin();
    this.#evidence.reset();
    this.#callsInTurn = 0;
    this.#refused = undefined;
    const emitTurn: Emit = (event) => {
      this.#evidence.observe(event);
      emit(event);
    };
    this.emitCurrent = emitTurn;
    for (const event of this.#pending.splice(0)) emitTurn(event);
    const onAbort = () => this.agent.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      let run: () => Promise<void> = () => this.agent.prompt(prompt);
      // One attempt per loop: the first send, then at most the one replay the gate allows (MC-10).
      while (turn.attempt()) {
        await run();
        if (signal.aborted) {
          turn.cancel("cancelled by the operator");
          break;
        }
        const last = this.agent.state.messages.at(-1);
        if (!isAssistant(last) || (last.stopReason !== "error" && last.stopReason !== "aborted")) {
          turn.completed();
          break;
        }
        if (last.stopReason === "aborted") {
          turn.interrupted();
          break;
        }
        const next = await this.#recover(last, emitTurn, turn, signal);
        if (!next) break;
        run = next;
      }
    } catch (error) {
      turn.failed(errorMessage(error));
      throw error;
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.#materializeWindow();
      this.emitCurrent = undefined;
    }
    return turn.outcome();
  }

  protected override onCancel(): void {
    // MC-9: a stop that interrupts a silent compaction only clears its "fired" flag; its failure is
    // recorded as interrupted, never classified (no latch), and nothing re-runs it at once.
    if (this.#compacting) this.#context.controller.interruptSilentCompaction();
    this.agent.abort();
  }

  /** Cuts whole exchanges only: the first dropped message must be a user prompt, so no tool call loses its result. */
  protected override dropLastMessages(count: number): void {
    const messages = this.agent.state.messages as Message[];
    const valid = messages.flatMap((m, i) => (m.role === "user" ? [messages.length - i] : [])).reverse();
    if (!Number.isInteger(count) || !valid.includes(count)) {
      throw new UserInputError(
        `rewind: cannot drop ${count} message(s) of ${messages.length}; a rewind drops whole exchanges, starting at a user prompt. Valid counts: ${valid.join(", ") || "none (the transcript is empty)"}`,
      );
    }
    this.agent.state.messages = messages.slice(0, messages.length - count);
  }
}
