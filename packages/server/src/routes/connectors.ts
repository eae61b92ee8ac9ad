// A company's connectors: readiness computed now, secrets never stored nor echoed.
import { CONNECTOR_KINDS } from "@cadre/model";
import type { BodySpec } from "../http/schema.js";
import { type AddConnectorInput, addConnector } from "@cadre/company";
import { route } from "./define.js";
import { type CompanyScope, companyScope } from "./scopes.js";
import { connectorView } from "./views.js";

export const ADD_CONNECTOR_BODY: BodySpec = {
  id: {
    kind: "string",
    required: false,
    maxLength: 64,
    description: "Id unique in the company (lowercase letters, digits, -); default: the kind.",
  },
  kind: {
    kind: "string",
    required: true,
    maxLength: 40,
    enum: CONNECTOR_KINDS,
    description: "Harness and provider.",
  },
  enabledModels: {
    kind: "string-list",
    required: false,
    maxItems: 20,
    itemMaxLength: 128,
    description: "Explicit model ids of this provider; default: the kind's defaults.",
  },
  config: {
    kind: "object",
    required: false,
    maxKeys: 20,
    description:
      "Non-secret configuration: baseUrl, apiKeyEnv (the name of the variable holding the key), seed.",
  },
};

export const connectorRoutes = [
  route<CompanyScope>({
    method: "get",
    path: "/api/companies/{id}/connectors",
    summary: "The company's connectors with their readiness.",
    access: "company",
    scope: companyScope,
    responses: { 200: "A list of connectors." },
    async handle({ c, ctx, scope }) {
      return c.json((await ctx.store.listConnectors(scope.companyId)).map((x) => connectorView(x, ctx.env)));
    },
  }),
  route<CompanyScope>({
    method: "post",
    path: "/api/companies/{id}/connectors",
    summary: "Add a connector to the company.",
    access: "operator",
    scope: companyScope,
    body: { spec: ADD_CONNECTOR_BODY },
    responses: { 201: "The connector, with its readiness." },
    async handle({ c, ctx, scope, body }) {
      const row = await addConnector(ctx.store, scope.companyId, body as AddConnectorInput);
      return c.json(connectorView(row, ctx.env), 201);
    },
  }),
];
