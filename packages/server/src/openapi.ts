// The OpenAPI 3.1 document, built from the route table: paths, access, request bodies (the very
// schemas the validator uses), query parameters, and responses with the schemas of the views the
// handlers return (routes/views.ts) and of the one error body. Nothing is written twice.
import { jsonSchema } from "@cadre/model";
import { ErrorBodySchema } from "./http/errors.js";
import { FeedMessageSchema } from "./feed/sse.js";
import { bodyRequired, type RouteSpec } from "./routes/define.js";

const ACCESS_NOTE = {
  public: "No token needed.",
  authenticated: "Any valid token.",
  company: "The operator, or an agent token of the company the resource belongs to.",
  operator: "The operator token only.",
} as const;

const ERROR_REF = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };

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
    const responses: Record<string, unknown> = {
      [r.response.status]: {
        description: r.response.description,
        content:
          r.produces === "sse"
            ? {
                "text/event-stream": {
                  schema: {
                    type: "string",
                    description:
                      "SSE frames; each data line is a FeedMessage (components/schemas/FeedMessage).",
                  },
                },
              }
            : r.produces === "file"
              ? { "application/octet-stream": { schema: { type: "string", format: "binary" } } }
              : { "application/json": { schema: jsonSchema(r.response.schema) } },
      },
    };
    const errors: Record<string, string> = {
      ...r.errors,
      default: "An error: {error: {code, message, fields?}}.",
    };
    if (r.access !== "public") errors[401] ??= "Missing or invalid token.";
    if (r.access === "operator" || r.access === "company") errors[403] ??= "The token may not do this.";
    if (r.scope) errors[404] ??= "The resource named in the path does not exist.";
    if (r.body) {
      errors[400] ??= "Invalid input, naming each field.";
      errors[413] ??= "Body over the size limit.";
      errors[415] ??= "Body not JSON.";
    }
    for (const [status, description] of Object.entries(errors))
      responses[status] ??= { description, content: ERROR_REF };
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
      schemas: { Error: jsonSchema(ErrorBodySchema), FeedMessage: jsonSchema(FeedMessageSchema) },
    },
    paths,
  };
}
