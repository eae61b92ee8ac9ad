// Health and the OpenAPI document, which is generated from the route table itself.
import { route, type RouteSpec } from "./define.js";
import { openApiDocument } from "../openapi.js";
import { Type } from "typebox";

export function metaRoutes(all: () => readonly RouteSpec[]) {
  let document: Record<string, unknown> | undefined;
  return [
    route({
      method: "get",
      path: "/healthz",
      summary: "Liveness: the server answers.",
      access: "public",
      response: {
        status: 200,
        description: "The server answers.",
        schema: Type.Object({ ok: Type.Literal(true) }, { additionalProperties: false }),
      },
      handle: () => ({ ok: true as const }),
    }),
    route({
      method: "get",
      path: "/api/openapi.json",
      summary:
        "This API's OpenAPI 3.1 document, generated from the same route schemas that validate requests.",
      access: "public",
      response: {
        status: 200,
        description: "The OpenAPI document.",
        schema: Type.Record(Type.String(), Type.Unknown()),
      },
      handle: () => (document ??= openApiDocument(all())),
    }),
  ];
}
