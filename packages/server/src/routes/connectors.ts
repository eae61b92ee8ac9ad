// A company's connectors: readiness computed now, secrets never stored nor echoed.
import { addConnector, addConnectorSchema } from "@cadre/company";
import { route } from "./define.js";
import { companyScope } from "./scopes.js";
import { Type } from "typebox";
import { connectorView, ConnectorViewSchema } from "./views.js";

export const connectorRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/connectors",
    summary: "The company's connectors with their readiness.",
    access: "company",
    scope: companyScope,
    response: { status: 200, description: "A list of connectors.", schema: Type.Array(ConnectorViewSchema) },
    async handle({ ctx, scope }) {
      return (await ctx.store.listConnectors(scope.companyId)).map((x) => connectorView(x, ctx.env));
    },
  }),
  route({
    method: "post",
    path: "/api/companies/{id}/connectors",
    summary: "Add a connector to the company.",
    access: "operator",
    scope: companyScope,
    body: addConnectorSchema,
    response: { status: 201, description: "The connector, with its readiness.", schema: ConnectorViewSchema },
    async handle({ ctx, scope, body }) {
      return connectorView(await addConnector(ctx.store, scope.companyId, body), ctx.env);
    },
  }),
];
