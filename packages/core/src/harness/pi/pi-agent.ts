// The Pi harness: a BaseAgent over @mariozechner/pi-agent-core's Agent. Pi runs the agent loop
// (model call → tool calls → results → next call); we adapt tools in, and translate events out.
import { Agent, type AgentTool, type StreamFn } from "@mariozechner/pi-agent-core";
import { type Message, streamSimple } from "@mariozechner/pi-ai";
import { BaseAgent, type Emit, type SessionConfig, type TurnOutcome } from "../../agent/base-agent.js";
import type { ToolDefinition } from "../../agent/tool.js";
import { UserInputError } from "../../errors.js";
import { placeAnthropicCacheBreakpoints } from "../../prompt/anthropic-breakpoints.js";
import type { PromptSegment } from "../../prompt/assemble.js";
import { type ModelCallPrefix, PromptPrefixChangedError, StablePrefixGuard } from "../../prompt/prefix-guard.js";
import { createPiTranslatorState, translatePiEvent } from "./translate.js";
import { type PiRoute, toPiModel } from "./pi-model.js";

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
}

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
      if (outcome.isError) throw new ToolRefusal(outcome.content.map((c) => (c.type === "text" ? c.text : "")).join("\n"));
      return { content: outcome.content, details: outcome.details };
    },
    executionMode: "sequential",
  };
}

class ToolRefusal extends Error {}

export class PiAgent extends BaseAgent {
  private readonly agent: Agent;
  private readonly translator = createPiTranslatorState();
  private emitCurrent: Emit | undefined;
  private readonly prefixGuard: StablePrefixGuard;

  constructor(config: SessionConfig, options: PiAgentOptions = {}) {
    super(config);
    this.prefixGuard = new StablePrefixGuard(options.segments);
    const inner = options.streamFn ?? streamSimple;
    const onModelCall = options.onModelCall;
    // Every model call passes the stable-prefix check first (MC-3): a drifted system prompt or tool
    // list fails the turn closed, with an error event, before anything reaches the provider.
    const guarded: StreamFn = (model, context, streamOptions) => {
      let prefix: ModelCallPrefix;
      try {
        prefix = this.prefixGuard.check(context.systemPrompt ?? "", context.tools ?? []);
      } catch (error) {
        if (error instanceof PromptPrefixChangedError) this.emitCurrent?.({ type: "error", message: error.message, code: error.code });
        throw error;
      }
      onModelCall?.(prefix);
      if (model.api !== "anthropic-messages") return inner(model, context, streamOptions);
      const onPayload = streamOptions?.onPayload;
      return inner(model, context, {
        ...streamOptions,
        onPayload: async (payload, m) => placeAnthropicCacheBreakpoints((await onPayload?.(payload, m)) ?? payload),
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
      ...(options.getApiKey ? { getApiKey: options.getApiKey } : {}),
    });
    this.agent.subscribe((event) => {
      const emit = this.emitCurrent;
      if (!emit) return;
      for (const translated of translatePiEvent(event, this.translator)) emit(translated);
    });
  }

  protected async execute(prompt: string, emit: Emit, signal: AbortSignal): Promise<TurnOutcome> {
    this.emitCurrent = emit;
    const onAbort = () => this.agent.abort();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      await this.agent.prompt(prompt);
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.emitCurrent = undefined;
    }
    const last = this.agent.state.messages.at(-1);
    if (last && last.role === "assistant") {
      if (last.stopReason === "aborted") return { status: "cancelled", reason: "cancelled" };
      if (last.stopReason === "error") return { status: "failed", reason: last.errorMessage ?? "the model call failed" };
    }
    return { status: "done" };
  }

  protected override onCancel(): void {
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
