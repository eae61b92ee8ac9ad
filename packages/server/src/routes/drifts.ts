// Model drifts (MC-6): the runs whose endpoint served another model than the declared one, or a
// model replaced under its id — what the dashboard's overview notice shows.
import { modelDriftReport, ModelDriftReportSchema } from "@cadre/company";
import { route } from "./define.js";
import { companyScope } from "./scopes.js";

export const driftRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/model-drifts",
    summary:
      "The company's model drifts, newest first: the agent, the declared and the served model, when, and whether it was refused.",
    access: "company",
    scope: companyScope,
    response: {
      status: 200,
      description: "The drifts recorded (at most 50).",
      schema: ModelDriftReportSchema,
    },
    async handle({ ctx, scope }) {
      return modelDriftReport(ctx.store, scope.companyId);
    },
  }),
];
