// What each wire module provides: read a request into the normalised shape, render an answer in
// both forms (one JSON body, or the SSE events of a stream) and render errors.
import type { SseFrame } from "../http/sse.js";
import type { ReplyBlock, StandinRequest, UsageCounts, VendorError, Wire } from "../types.js";
import { type ErrorContext, invalidRequest, type RenderedError } from "./errors.js";

export interface RenderInput {
  request: StandinRequest;
  /** The content as it fits the request's max tokens. */
  content: ReplyBlock[];
  truncated: boolean;
  /** The reply's own stop value, if it set one. */
  stopReason?: string;
  usage: UsageCounts;
  /** The model the response names. */
  model: string;
  /** Milliseconds since the epoch (the response's `created`). */
  now: number;
}

export interface Rendered {
  json: unknown;
  events: SseFrame[];
  /** The in-stream error events for a stream cut with `then: "error"` after `sent` events. */
  failure(error: VendorError, context: ErrorContext, sent: number): SseFrame[];
}

export interface WireCodec {
  wire: Wire;
  /** Throws WireRequestError for a request the vendor would refuse with a 400. */
  normalise(body: unknown, headers: Record<string, string>, path: string): StandinRequest;
  render(input: RenderInput): Rendered;
  error(error: VendorError, context: ErrorContext, requestId: string): RenderedError;
}

export type Json = Record<string, unknown>;

export function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The request body as an object, or the vendor's 400. */
export function bodyObject(body: unknown): Json {
  if (!isObject(body)) throw invalidRequest("The request body must be a JSON object.");
  return body;
}

/** A required string field, or the vendor's 400 naming it. */
export function requiredString(body: Json, field: string): string {
  const value = body[field];
  if (typeof value !== "string" || value.length === 0) throw invalidRequest(`${field}: Field required`);
  return value;
}

export function textOf(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value ?? null);
}
