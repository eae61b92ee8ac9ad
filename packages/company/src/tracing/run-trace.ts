// One span tree per run, following OpenTelemetry's GenAI semantic conventions: `invoke_agent` for
// the run, a `chat` span per model call (requested and served model, token usage with the cache's
// share) and an `execute_tool` span per tool call, each with the company, agent, task and cause
// of the wake. Built from the run's own AgentEvents, so it says what the run record says. No
// prompt or completion text unless the operator opted in (captureContent).
import { createRequire } from "node:module";
import type { AgentEvent } from "@cadre/core";
import type { Context, ContextAPI, Span, TraceAPI, Tracer } from "@opentelemetry/api";
import { runTracer } from "./otel.js";

export interface RunTraceStart {
  runId: string;
  companyId: string;
  agentId: string;
  agentName: string;
  /** The connector's kind (the provider, in the conventions' words). */
  provider: string;
  model: string;
  trigger: string;
  /** The tasks the run took, and why it was woken, in words. */
  taskIds: readonly string[];
  causes: readonly string[];
  /** The cue the run started with (recorded only with captureContent). */
  cue: string;
}

/** Watches a run's events and records its spans; a no-op when tracing is off. */
export interface RunTrace {
  event(event: AgentEvent): void;
  /** Ends what is still open (the run's end without a terminal event, e.g. a thrown failure). */
  end(status: string, error: string | null): void;
}

const NO_TRACE: RunTrace = { event: () => {}, end: () => {} };

// Numeric codes of @opentelemetry/api's SpanStatusCode and SpanKind (the API's enums, by value,
// so this file needs the API only for its types).
const STATUS_ERROR = 2;
const KIND_CLIENT = 2;
const KIND_INTERNAL = 0;

export function startRunTrace(start: RunTraceStart): RunTrace {
  const on = runTracer();
  if (!on) return NO_TRACE;
  return new SpanTree(on.tracer, on.captureContent, start);
}

class SpanTree implements RunTrace {
  private readonly root: Span;
  private chat: { span: Span; usage: boolean; text: string[] } | undefined;
  private readonly tools = new Map<string, Span>();
  private ended = false;
  private readonly common: Record<string, string>;

  constructor(
    private readonly tracer: Tracer,
    private readonly captureContent: boolean,
    private readonly start: RunTraceStart,
  ) {
    this.common = {
      "gen_ai.provider.name": start.provider,
      "gen_ai.agent.id": start.agentId,
      "gen_ai.agent.name": start.agentName,
      "gen_ai.conversation.id": start.runId,
      "cadre.company.id": start.companyId,
      "cadre.run.id": start.runId,
    };
    this.root = tracer.startSpan(`invoke_agent ${start.agentName}`, {
      kind: KIND_INTERNAL,
      attributes: {
        ...this.common,
        "gen_ai.operation.name": "invoke_agent",
        "gen_ai.request.model": start.model,
        "cadre.wake.trigger": start.trigger,
        "cadre.task.ids": [...start.taskIds],
        "cadre.wake.causes": [...start.causes],
        ...(captureContent
          ? {
              "gen_ai.input.messages": JSON.stringify([
                { role: "user", parts: [{ type: "text", content: start.cue }] },
              ]),
            }
          : {}),
      },
    });
  }

  private child(name: string, kind: number, attributes: Record<string, string | number | string[]>): Span {
    return this.tracer.startSpan(name, { kind, attributes }, this.parentContext());
  }

  private parentContext() {
    // The API's context helpers, loaded with it only when tracing is on.
    return contextWith(this.root);
  }

  private closeChat(): void {
    const chat = this.chat;
    if (!chat) return;
    if (this.captureContent && chat.text.length > 0)
      chat.span.setAttribute(
        "gen_ai.output.messages",
        JSON.stringify([{ role: "assistant", parts: chat.text.map((t) => ({ type: "text", content: t })) }]),
      );
    chat.span.end();
    this.chat = undefined;
  }

  event(event: AgentEvent): void {
    if (this.ended) return;
    switch (event.type) {
      case "turn_start":
        this.closeChat();
        this.chat = {
          span: this.child(`chat ${this.start.model}`, KIND_CLIENT, {
            ...this.common,
            "gen_ai.operation.name": "chat",
            "gen_ai.request.model": this.start.model,
            "gen_ai.response.model": event.model ?? this.start.model,
            ...(event.messageId ? { "gen_ai.response.id": event.messageId } : {}),
          }),
          usage: false,
          text: [],
        };
        return;
      case "text_end":
        this.chat?.text.push(event.text);
        return;
      case "usage": {
        const chat = this.chat;
        if (!chat) return;
        const u = event.usage;
        // The conventions count cached tokens in the input; their share is given beside it.
        chat.span.setAttributes({
          "gen_ai.usage.input_tokens": u.input + u.cacheRead + u.cacheWrite,
          "gen_ai.usage.output_tokens": u.output,
          "gen_ai.usage.cache_read.input_tokens": u.cacheRead,
          "gen_ai.usage.cache_creation.input_tokens": u.cacheWrite,
        });
        chat.usage = true;
        this.closeChat();
        return;
      }
      case "turn_end":
        this.chat?.span.setAttribute("gen_ai.response.finish_reasons", [
          event.vendorStopReason ?? event.stopReason,
        ]);
        this.closeChat();
        return;
      case "tool_use":
        this.tools.set(
          event.id,
          this.child(`execute_tool ${event.name}`, KIND_INTERNAL, {
            ...this.common,
            "gen_ai.operation.name": "execute_tool",
            "gen_ai.tool.name": event.name,
            "gen_ai.tool.call.id": event.id,
            "gen_ai.tool.type": "function",
          }),
        );
        return;
      case "tool_result": {
        const span = this.tools.get(event.toolUseId);
        if (!span) return;
        if (event.isError) span.setStatus({ code: STATUS_ERROR, message: "the tool answered an error" });
        span.end();
        this.tools.delete(event.toolUseId);
        return;
      }
      case "terminal":
        this.end(event.status, event.status === "done" ? null : (event.reason ?? event.status));
        return;
      default:
        return;
    }
  }

  end(status: string, error: string | null): void {
    if (this.ended) return;
    this.ended = true;
    this.closeChat();
    for (const span of this.tools.values()) span.end();
    this.tools.clear();
    this.root.setAttribute("cadre.run.status", status);
    if (status !== "done") this.root.setStatus({ code: STATUS_ERROR, message: error ?? status });
    this.root.end();
  }
}

let api: { context: ContextAPI; trace: TraceAPI } | undefined;

function contextWith(span: Span): Context {
  api ??= createRequire(import.meta.url)("@opentelemetry/api") as { context: ContextAPI; trace: TraceAPI };
  return api.trace.setSpan(api.context.active(), span);
}
