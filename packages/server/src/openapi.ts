// The OpenAPI 3.1 document, built from the route table: paths, access, bodies (the very schemas the
// validator uses), query parameters and responses. Nothing is written twice.
import { jsonSchema } from "@cadre/model";
import { bodyRequired, type RouteSpec } from "./routes/define.js";

const ERROR_SCHEMA = {
  type: "object",
  required: ["error"],
  properties: {
    error: {
      type: "object",
      required: ["code", "message"],
      properties: {
        code: {
          type: "string",
          description:
            "invalid_input, malformed_json, unauthorized, forbidden, not_found, conflict, gone, payload_too_large, unsupported_media_type, internal",
        },
        message: { type: "string" },
        fields: {
          type: "object",
          additionalProperties: { type: "string" },
          description: "Each bad field and why.",
        },
      },
    },
  },
};

const ACCESS_NOTE = {
  public: "No token needed.",
  authenticated: "Any valid token.",
  company: "The operator, or an agent token of the company the resource belongs to.",
  operator: "The operator token only.",
} as const;

export function openApiDocument(routes: readonly RouteSpec[]): Record<string, unknown> {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const pathParams = [...r.path.matchAll(/\{(\w+)\}/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "string" },
    }));
    const queryParams = Object.entries(r.query ?? {}).map(([name, description]) => ({
      name,
      in: "query",
      required: false,
      description,
      schema: { type: "string" },
    }));
    const headerParams =
      r.produces === "sse"
        ? [
            {
              name: "Last-Event-ID",
              in: "header",
              required: false,
              description: "Resume after this event id.",
              schema: { type: "string" },
            },
          ]
        : [];
    const responses: Record<string, unknown> = {};
    for (const [status, description] of Object.entries(r.responses)) {
      const content =
        r.produces === "sse"
          ? { "text/event-stream": { schema: { type: "string" } } }
          : { "application/json": { schema: {} } };
      responses[status] = { description, content };
    }
    const errors: Record<string, string> = { default: "An error: {error: {code, message, fields?}}." };
    if (r.access !== "public") Object.assign(errors, { 401: "Missing or invalid token." });
    if (r.access === "operator" || r.access === "company")
      Object.assign(errors, { 403: "The token may not do this." });
    if (r.body)
      Object.assign(errors, {
        400: "Invalid input, naming each field.",
        413: "Body over the size limit.",
        415: "Body not JSON.",
      });
    for (const [status, description] of Object.entries(errors)) {
      responses[status] ??= {
        description,
        content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
      };
    }
    paths[r.path] ??= {};
    (paths[r.path] as Record<string, unknown>)[r.method] = {
      summary: r.summary,
      description: ACCESS_NOTE[r.access],
      ...(r.access === "public" ? { security: [] } : {}),
      parameters: [...pathParams, ...queryParams, ...headerParams],
      ...(r.body
        ? {
            requestBody: {
              required: bodyRequired(r.body),
              content: { "application/json": { schema: jsonSchema(r.body) } },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Cadre API",
      version: "0.1.0",
      description:
        "Companies, agents, approvals, wakes and live events. JSON in and out; Authorization: Bearer TOKEN.",
    },
    security: [{ bearer: [] }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer" } },
      schemas: { Error: ERROR_SCHEMA },
    },
    paths,
  };
}
