// Health and the OpenAPI document, which is generated from the route table itself.
import { route, type RouteSpec } from "./define.js";
import { openApiDocument } from "../openapi.js";

export function metaRoutes(all: () => readonly RouteSpec[]) {
  let document: unknown;
  return [
    route({
      method: "get",
      path: "/healthz",
      summary: "Liveness: the server answers.",
      access: "public",
      responses: { 200: "{ ok: true }" },
      handle: ({ c }) => c.json({ ok: true }),
    }),
    route({
      method: "get",
      path: "/api/openapi.json",
      summary:
        "This API's OpenAPI 3.1 document, generated from the same route schemas that validate requests.",
      access: "public",
      responses: { 200: "The OpenAPI document." },
      handle: ({ c }) => c.json((document ??= openApiDocument(all()))),
    }),
  ];
}
