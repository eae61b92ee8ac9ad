// One request's exchange with its client: the log entry it settles (before anything is written,
// so a hung request is logged too), the stand-in's headers on every response, and HTTP errors
// rendered in the vendor format the request speaks.
import type { ServerResponse } from "node:http";
import { emit, type EmitPlan } from "./http/emit.js";
import { STANDIN_HEADER, standinId } from "./ids.js";
import type { RequestLog } from "./log/request-log.js";
import type { Endpoint, Latency, LoggedRequest, VendorError } from "./types.js";
import { anthropicError, type ErrorContext, openaiError } from "./wires/errors.js";

/** Which vendor's error format a request gets when its endpoint does not say. */
export function speaksAnthropic(endpoint: Endpoint, headers: Record<string, string>): boolean {
  if (endpoint === "messages" || endpoint === "count_tokens") return true;
  if (endpoint === "chat" || endpoint === "responses") return false;
  return headers["anthropic-version"] !== undefined || headers["x-api-key"] !== undefined;
}

export class Exchange {
  readonly requestId = standinId("req");
  readonly closed = new AbortController();
  readonly base: Record<string, string>;

  constructor(
    readonly res: ServerResponse,
    readonly entry: LoggedRequest,
    readonly log: RequestLog,
  ) {
    this.base = { [STANDIN_HEADER]: "1", "request-id": this.requestId, "x-request-id": this.requestId };
    res.on("close", () => this.closed.abort());
  }

  /** Records the answer and logs it before anything is written, so a hung request is logged too. */
  settle(status: number, answered: LoggedRequest["answered"]): void {
    this.entry.status = status;
    this.entry.answered = answered;
    this.log.settle(this.entry);
  }

  async send(plan: EmitPlan, answered: LoggedRequest["answered"]): Promise<void> {
    this.settle(plan.status, answered);
    await emit(this.res, { ...plan, headers: { ...this.base, ...plan.headers } }, this.closed.signal);
  }

  fail(error: VendorError, context: ErrorContext, extra: Record<string, string> = {}, latency?: Latency) {
    const anthropic = speaksAnthropic(this.entry.endpoint, this.entry.headers);
    const api = this.entry.endpoint === "responses" ? "responses" : "chat";
    const rendered = anthropic
      ? anthropicError(error, context, this.requestId)
      : openaiError(error, context, api);
    return this.send(
      { status: rendered.status, headers: extra, json: rendered.body, ...(latency ? { latency } : {}) },
      { kind: "error", error: `${error.kind}: ${JSON.stringify(rendered.body)}` },
    );
  }
}
