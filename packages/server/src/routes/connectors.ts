// A company's connectors: readiness computed now, secrets never stored nor echoed.
import { addConnector, addConnectorSchema } from "@cadre/company";
import { route } from "./define.js";
import { companyScope } from "./scopes.js";
import { connectorView } from "./views.js";

export const connectorRoutes = [
  route({
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
  route({
    method: "post",
    path: "/api/companies/{id}/connectors",
    summary: "Add a connector to the company.",
    access: "operator",
    scope: companyScope,
    body: addConnectorSchema,
    responses: { 201: "The connector, with its readiness." },
    async handle({ c, ctx, scope, body }) {
      const row = await addConnector(ctx.store, scope.companyId, body);
      return c.json(connectorView(row, ctx.env), 201);
    },
  }),
];
