// The API's endpoints as types, derived from the route table itself (routes/index.ts): for each
// JSON route, keyed "METHOD /path/{param}", its path parameters, query parameters, body and answer
// — `Static<>` of the very schemas that validate the body and check the answer. Types only: the
// client (client.ts) and its users (the CLI's HTTP adapter, the dashboard) import this with
// `import type`, so no server code reaches them, and a change to a route's schema is a type error
// at every call that no longer fits.
import type { Static, TSchema } from "@cadre/model";
import type { RouteTable } from "../routes/index.js";

/** `{id}` segments of a path template, as names. */
type ParamNames<P extends string> = P extends `${string}{${infer Name}}${infer Rest}`
  ? Name | ParamNames<Rest>
  : never;

type ParamsOf<P extends string> = [ParamNames<P>] extends [never] ? undefined : Record<ParamNames<P>, string>;

type QueryOf<Q> = [NonNullable<Q>] extends [never]
  ? undefined
  : { [K in keyof NonNullable<Q>]?: string | number | undefined };

type BodyOf<B> = [NonNullable<B>] extends [never]
  ? undefined
  : NonNullable<B> extends TSchema
    ? Static<NonNullable<B>>
    : undefined;

/** One endpoint's types. */
export interface EndpointTypes<Params, Query, Body, Answer> {
  params: Params;
  query: Query;
  body: Body;
  answer: Answer;
}

/** Every JSON endpoint of the API (the event stream, `text/event-stream`, has no JSON answer). */
export type ApiEndpoints = {
  [
    R in RouteTable as R["response"]["schema"] extends TSchema
      ? `${Uppercase<R["method"]>} ${R["path"]}`
      : never
  ]: EndpointTypes<
    ParamsOf<R["path"]>,
    QueryOf<R["query"]>,
    BodyOf<R["body"]>,
    R["response"]["schema"] extends TSchema ? Static<R["response"]["schema"]> : never
  >;
};

export type Endpoint = keyof ApiEndpoints;
/** What an endpoint answers on success. */
export type AnswerOf<K extends Endpoint> = ApiEndpoints[K]["answer"];
/** What an endpoint takes as its JSON body. */
export type BodyOfEndpoint<K extends Endpoint> = ApiEndpoints[K]["body"];
