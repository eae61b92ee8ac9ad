// Reads a request's JSON body: JSON media type, a hard size cap counted on the bytes actually
// received (never trusting Content-Length alone), strict UTF-8, and an object at the top.
import type { Context } from "hono";
import { HttpError } from "./errors.js";

export const DEFAULT_MAX_BODY_BYTES = 256 * 1024;
/** No route's body nests deeper; a deeper one is refused before anything walks it. */
export const MAX_BODY_DEPTH = 32;

/** The nesting depth of a parsed JSON value, measured without recursion, stopping past `limit`. */
export function jsonDepth(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    if (deepest > limit) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/**
 * The top-level fields of a body under which it nests deeper than `limit` ("" alone when the body
 * is not an object and is itself too deep); measured without recursion.
 */
export function tooDeepFields(value: unknown, limit: number): string[] {
  const found = new Set<string>();
  const stack: Array<[unknown, number, string]> = [[value, 0, ""]];
  while (stack.length > 0) {
    const [v, depth, field] = stack.pop() as [unknown, number, string];
    if (typeof v !== "object" || v === null || found.has(field)) continue;
    if (depth + 1 > limit) {
      found.add(field);
      continue;
    }
    if (Array.isArray(v)) for (const child of v) stack.push([child, depth + 1, field]);
    else
      for (const [key, child] of Object.entries(v)) stack.push([child, depth + 1, depth === 0 ? key : field]);
  }
  return [...found];
}

/**
 * A body nested too deep: each too-deep top-level field under `fields`, and the rest of the body
 * (those fields left out, so nothing walks them) for the route to check as well, so one refusal
 * names everything wrong.
 */
export class TooDeepBody extends HttpError {
  constructor(
    fields: Record<string, string>,
    readonly rest: Record<string, unknown>,
  ) {
    super(
      400,
      "invalid_input",
      `${Object.keys(fields).join(", ")} ${Object.keys(fields).length > 1 ? "are" : "is"} nested more than ${MAX_BODY_DEPTH} levels deep; no request needs that many`,
      fields,
    );
  }
}

const decoder = new TextDecoder("utf-8", { fatal: true });

function tooLarge(maxBytes: number): HttpError {
  return new HttpError(413, "payload_too_large", `the request body is larger than ${maxBytes} bytes`);
}

async function readCapped(request: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = request.headers.get("content-length");
  if (declared !== null && Number(declared) > maxBytes) throw tooLarge(maxBytes);
  if (!request.body) return new Uint8Array(0);
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge(maxBytes);
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return bytes;
}

/**
 * The parsed body, or `{}` for an empty body when the route has no required field. JSON.parse keeps
 * a "__proto__" key as an own property (it never reaches a prototype), so validation sees it and
 * refuses it as an unknown field.
 */
export async function readJsonBody(
  c: Context,
  maxBytes: number,
  emptyAllowed: boolean,
): Promise<Record<string, unknown>> {
  const bytes = await readCapped(c.req.raw, maxBytes);
  const type = c.req.header("content-type");
  if (bytes.byteLength === 0 && (type === undefined || type === "")) {
    if (emptyAllowed) return {};
    throw new HttpError(400, "invalid_input", "a JSON body is required");
  }
  if (type === undefined || !/^application\/json\s*(;|$)/i.test(type)) {
    throw new HttpError(
      415,
      "unsupported_media_type",
      `the body must be JSON, sent with Content-Type: application/json (got ${type ? `"${type.slice(0, 80)}"` : "none"})`,
    );
  }
  let text: string;
  try {
    text = decoder.decode(bytes);
  } catch {
    throw new HttpError(400, "malformed_json", "the body is not valid UTF-8");
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new HttpError(
      400,
      "malformed_json",
      `the body is not valid JSON: ${(error as Error).message.slice(0, 200)}`,
    );
  }
  // JSON.parse takes any depth; the checks and the store after it walk the value. Refused here,
  // a 4,000-level body is a 400, never a stack overflow.
  const tooDeep = tooDeepFields(parsed, MAX_BODY_DEPTH);
  const why = `is nested more than ${MAX_BODY_DEPTH} levels deep; no request needs that many`;
  if (tooDeep.includes("") || (tooDeep.length > 0 && (Array.isArray(parsed) || typeof parsed !== "object")))
    throw new HttpError(400, "invalid_input", `the body ${why}`);
  if (tooDeep.length > 0) {
    const rest: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(parsed as Record<string, unknown>))
      if (!tooDeep.includes(key))
        Object.defineProperty(rest, key, { value: v, enumerable: true, writable: true, configurable: true });
    throw new TooDeepBody(Object.fromEntries(tooDeep.map((f) => [f, why])), rest);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new HttpError(
      400,
      "invalid_input",
      `the body must be a JSON object, got ${Array.isArray(parsed) ? "an array" : parsed === null ? "null" : typeof parsed}`,
    );
  }
  return parsed as Record<string, unknown>;
}
