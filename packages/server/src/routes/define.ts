// The route table's shape. Each route is one spec: method, path, access, body schema, handler. The
// app registers them, checks access in a fixed order, validates the body with the spec's schema, and
// builds the OpenAPI document from the same specs.
import type { ValidationResult } from "@cadre/core";
import type { Context } from "hono";
import type { Access } from "../auth/access.js";
import type { Caller } from "../auth/principal.js";
import type { BodySpec } from "../http/schema.js";
import type { ServerContext } from "../context.js";

export interface RouteBody {
  spec: BodySpec;
  /** Replaces the spec's validator (the legacy routes use the tools' own, so messages match exactly). */
  validate?: (raw: unknown) => ValidationResult<unknown>;
}

export interface Scope {
  companyId: string;
}

export interface RouteInput<S> {
  c: Context;
  ctx: ServerContext;
  principal: Caller;
  params: Record<string, string>;
  /** What `scope` resolved (the company the resource belongs to, and the resource itself). */
  scope: S;
  body: any;
}

export interface RouteSpec<S extends Scope | undefined = any> {
  method: "get" | "post" | "patch" | "delete";
  /** OpenAPI style: /api/companies/{id} */
  path: string;
  summary: string;
  access: Access;
  /**
   * Resolves the resource named in the path and the company it belongs to (NotFoundError when
   * missing); "company" routes are then checked against the caller's company.
   */
  scope?: (ctx: ServerContext, params: Record<string, string>) => Promise<S>;
  body?: RouteBody;
  /** Checked after access and scope, before the body is read (e.g. a retired route's 410). */
  before?: (ctx: ServerContext) => void;
  /** Query parameters, documented in OpenAPI; the handler parses them. */
  query?: Record<string, string>;
  /** Status → description, for the OpenAPI document. */
  responses: Record<number, string>;
  /** "sse" routes answer text/event-stream. */
  produces?: "json" | "sse";
  handle(input: RouteInput<S>): Promise<Response> | Response;
}

export function route<S extends Scope | undefined>(spec: RouteSpec<S>): RouteSpec<S> {
  return spec;
}
