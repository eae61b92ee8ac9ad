// The route table's shape. Each route is one spec: method, path, access, body and response schemas,
// handler. The app registers them, checks access in a fixed order, validates the body with the
// spec's schema, sends what the handler returns with the response's status, and builds the OpenAPI
// document from the same specs. The body a handler receives is typed from its schema and what it
// returns must be its response schema's type (`Static<…>`), so the validator, the documentation,
// the handler and the clients that import the view types cannot drift.
import type { ValidationResult } from "@cadre/core";
import type { Static, TSchema } from "@cadre/model";
import type { Context } from "hono";
import type { OperatorRole } from "@cadre/model";
import type { Access } from "../auth/access.js";
import type { Caller } from "../auth/principal.js";
import type { ServerContext } from "../context.js";

export interface Scope {
  companyId: string;
}

export type BodyOf<B extends TSchema | undefined> = B extends TSchema ? Static<B> : undefined;

export interface RouteInput<S, B> {
  c: Context;
  ctx: ServerContext;
  principal: Caller;
  params: Record<string, string>;
  /** What `scope` resolved (the company the resource belongs to, and the resource itself). */
  scope: S;
  /** The body, validated against the route's schema (undefined for a route without one). */
  body: B;
}

export interface RouteResponse<R extends TSchema | undefined> {
  status: 200 | 201 | 202;
  description: string;
  /** The body's schema (views.ts); undefined for a stream or a file (`produces: "sse" | "file"`). */
  schema: R;
}

export type Handled<R extends TSchema | undefined> = R extends TSchema
  ? Static<R> | Promise<Static<R>>
  : Response | Promise<Response>;

export interface RouteSpec<
  S extends Scope | undefined = any,
  B extends TSchema | undefined = any,
  R extends TSchema | undefined = any,
> {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI style: /api/companies/{id} */
  path: string;
  summary: string;
  access: Access;
  /** The operator role the route needs (default: viewer to read, operator to write); see auth/access.ts. */
  role?: OperatorRole;
  /**
   * Resolves the resource named in the path and the company it belongs to (NotFoundError when
   * missing); "company" routes are then checked against the caller's company.
   */
  scope?: (ctx: ServerContext, params: Record<string, string>) => Promise<S>;
  /** The body's schema: validation (400 naming each field), the handler's type and the OpenAPI document. */
  body?: B;
  /**
   * The body's validator, when its refusals must read exactly like another entry point's (the
   * legacy routes use the tools' own); it validates against `body` all the same.
   */
  validate?: (raw: unknown) => ValidationResult<BodyOf<B>>;
  /** Checked after access and scope, before the body is read (e.g. a retired route's 410). */
  before?: (ctx: ServerContext) => void;
  /** Query parameters, documented in OpenAPI; the handler parses them. */
  query?: Record<string, string>;
  /** The success answer: its status, what it is, and its body's schema. */
  response: RouteResponse<R>;
  /** Other outcomes worth documenting (409, 410, …); the edge's 400/401/403/413/415 are added from access and body. */
  errors?: Record<number, string>;
  /** "sse" routes answer text/event-stream, "file" routes a file's bytes: the Response the handler builds. */
  produces?: "json" | "sse" | "file";
  handle(input: RouteInput<S, BodyOf<B>>): Handled<R>;
}

/**
 * A route as the table keeps it: the spec, with its method, path, query, body and response schema
 * types kept literal, so that `api/endpoints.ts` can derive each endpoint's types from the table.
 */
export type TypedRoute<
  M extends RouteSpec["method"],
  P extends string,
  S extends Scope | undefined,
  B extends TSchema | undefined,
  R extends TSchema | undefined,
  Q extends Record<string, string> | undefined,
> = RouteSpec<S, B, R> & { method: M; path: P; query?: Q };

export function route<
  const M extends RouteSpec["method"],
  const P extends string,
  S extends Scope | undefined = undefined,
  B extends TSchema | undefined = undefined,
  R extends TSchema | undefined = undefined,
  const Q extends Record<string, string> | undefined = undefined,
>(spec: RouteSpec<S, B, R> & { method: M; path: P; query?: Q }): TypedRoute<M, P, S, B, R, Q> {
  return spec;
}

/** True when the body schema has a required field: an empty body is then refused. */
export function bodyRequired(schema: TSchema): boolean {
  return (
    Array.isArray((schema as { required?: unknown }).required) &&
    (schema as { required: unknown[] }).required.length > 0
  );
}
