// A model call: count its input against the prefix cache (refusing a prompt over the context
// window), ask the policy, fit the answer to max tokens and send it in the request's wire.
import { untilAborted } from "./http/emit.js";
import type { Exchange } from "./exchange.js";
import type { HandlerSettings, HandlerState } from "./handle.js";
import { replyProblem } from "./policies/validate.js";
import type { Reply, StandinRequest, UsageCounts } from "./types.js";
import { fitToMaxTokens } from "./usage/output.js";
import { windowFor } from "./usage/prefix-cache.js";
import type { WireCodec } from "./wires/codec.js";
import type { ErrorContext } from "./wires/errors.js";

export async function modelCall(
  x: Exchange,
  codec: WireCodec,
  request: StandinRequest,
  settings: HandlerSettings,
  state: HandlerState,
): Promise<void> {
  const measure = state.cache.measure(request);
  const context: ErrorContext = {
    model: request.model,
    inputTokens: measure.total,
    ...(windowFor(settings.contextWindow, request.model) !== undefined
      ? { contextWindow: windowFor(settings.contextWindow, request.model) as number }
      : {}),
  };
  if (context.contextWindow !== undefined && measure.total > context.contextWindow)
    return x.fail({ kind: "context_overflow" }, context);
  measure.record();
  let reply: Reply;
  try {
    reply = await settings.policy(request, { callIndex: state.nextCall(), inputTokens: measure.total });
    const problem = replyProblem(reply);
    if (problem) throw new Error(`it returned an invalid reply: ${problem}`);
  } catch (error) {
    // Our test bed's bug, not a provider fault: say so and tell the SDKs not to retry it.
    const message = `stand-in policy failed: ${(error as Error).message}`;
    return x.fail({ kind: "server", message }, context, { "x-should-retry": "false" });
  }
  if (reply.type === "hang") {
    x.settle(0, { kind: "hang" });
    return untilAborted(x.closed.signal);
  }
  const latency = reply.latency ?? settings.latency;
  if (reply.type === "error") {
    const retry: Record<string, string> =
      reply.retryAfterSeconds !== undefined ? { "retry-after": String(reply.retryAfterSeconds) } : {};
    return x.fail(reply.error, context, retry, latency);
  }
  const fitted = fitToMaxTokens(reply.content, request.maxTokens);
  const usage: UsageCounts = {
    input: measure.uncached,
    cacheRead: measure.cacheRead,
    cacheWrite: measure.cacheWrite,
    output: fitted.output,
    reasoning: fitted.reasoning,
    ...reply.usage,
  };
  const model = reply.model ?? request.model;
  const rendered = codec.render({
    request,
    content: fitted.content,
    truncated: fitted.truncated,
    ...(reply.stopReason ? { stopReason: reply.stopReason } : {}),
    usage,
    model,
    now: Date.now(),
  });
  const cut = reply.cut;
  return x.send(
    {
      status: 200,
      // OpenAI's API names the model that served the call in this header, as Codex reads it.
      headers: codec.wire === "anthropic" ? {} : { "openai-model": model },
      ...(request.stream ? { events: rendered.events } : { json: rendered.json }),
      ...(latency ? { latency } : {}),
      ...(cut
        ? { cut, failure: rendered.failure(cut.error ?? { kind: "overloaded" }, context, cut.afterEvents) }
        : {}),
    },
    {
      kind: "answer",
      blocks: fitted.content.map((b) =>
        b.type === "tool_call" ? { type: b.type, name: b.name } : { type: b.type },
      ),
      usage,
      model,
    },
  );
}
