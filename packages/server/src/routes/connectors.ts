// A company's connectors: list, add, test, remove. One input schema (the CLI's `cadre connectors
// add` builds the same body); readiness is read from the probes' last outcomes, which the server
// refreshes in the background; secrets are never stored nor echoed.
import {
  addConnector,
  addConnectorSchema,
  ModelId,
  removeConnector,
  testConnector,
  validateAddConnectorInput,
} from "@cadre/company";
import { Type } from "typebox";
import { route } from "./define.js";
import { PAGE_QUERY, pageAnswer, pageRequest, PageSchema } from "./pages.js";
import { companyScope } from "./scopes.js";
import { connectorTestView, ConnectorTestViewSchema, connectorView, ConnectorViewSchema } from "./views.js";

export const TestConnectorBody = Type.Object(
  { model: Type.Optional(ModelId) },
  {
    additionalProperties: false,
    description: "The model to ask (default: the connector's first enabled model).",
  },
);

const connectorIdOf = (params: Record<string, string>) => params["connectorId"] ?? "";

export const connectorRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/connectors",
    summary:
      "The company's connectors with their readiness: the last outcome of each probe (endpoint answered; executable and credentials found), when it ran and what failed.",
    access: "company",
    scope: companyScope,
    query: PAGE_QUERY,
    response: {
      status: 200,
      description: "A page of connectors, oldest first.",
      schema: PageSchema(ConnectorViewSchema, "The connectors."),
    },
    async handle({ c, ctx, scope }) {
      const page = pageRequest(c);
      const connectors = await ctx.store.listConnectors(scope.companyId, page.store);
      const shown = connectors.slice(0, page.limit);
      await ctx.readiness.ensure(scope.companyId, shown);
      return pageAnswer(
        connectors,
        page,
        (x) => x.createdAt,
        (x) => connectorView(x, ctx.env, ctx.probes),
      );
    },
  }),
  route({
    method: "post",
    path: "/api/companies/{id}/connectors",
    summary:
      "Add a connector. Secrets are referenced by environment-variable name (config.apiKeyEnv), never stored: anything that looks like a credential, at any depth of config, is refused. An endpoint's models are declared with their context window (config.models); floating tags are refused.",
    access: "operator",
    role: "owner",
    scope: companyScope,
    body: addConnectorSchema,
    validate: validateAddConnectorInput,
    response: {
      status: 201,
      description: "The connector, with its readiness measured just now.",
      schema: ConnectorViewSchema,
    },
    errors: { 409: "The company already has a connector of that id." },
    async handle({ ctx, scope, body }) {
      const row = await addConnector(ctx.store, scope.companyId, body, { env: ctx.env, probes: ctx.probes });
      return connectorView(row, ctx.env, ctx.probes);
    },
  }),
  route({
    method: "post",
    path: "/api/companies/{id}/connectors/{connectorId}/test",
    summary:
      "One minimal real request through the connector (a model call of a few tokens on its wire; a harness's --version): ok, model, latencyMs and what failed. Never shows a secret.",
    access: "operator",
    role: "owner",
    scope: companyScope,
    body: TestConnectorBody,
    response: {
      status: 200,
      description: "The outcome (ok false with the error when the connector did not answer as it should).",
      schema: ConnectorTestViewSchema,
    },
    async handle({ ctx, scope, params, body }) {
      const result = await testConnector(ctx.store, scope.companyId, connectorIdOf(params), {
        env: ctx.env,
        probes: ctx.probes,
        ...(body.model !== undefined ? { model: body.model } : {}),
      });
      return connectorTestView(result);
    },
  }),
  route({
    method: "delete",
    path: "/api/companies/{id}/connectors/{connectorId}",
    summary:
      "Remove a connector. Refused while an active agent runs on it (naming each), and for the built-in offline connector.",
    access: "operator",
    role: "owner",
    scope: companyScope,
    response: {
      status: 200,
      description: "The connector as it was, now removed.",
      schema: ConnectorViewSchema,
    },
    errors: {
      409: "An active agent runs on it, or it is the built-in offline connector. Nothing was removed.",
    },
    async handle({ ctx, scope, params }) {
      const removed = await removeConnector(ctx.store, scope.companyId, connectorIdOf(params));
      return connectorView(removed, ctx.env, ctx.probes);
    },
  }),
];
