// Usage reports (tokens, cost, cache hit rate) as `cadre usage` computes them: per company with
// its agents and runs, and per run with one entry per model call. The dashboard charts these.
import {
  companyUsageReport,
  CompanyUsageReportSchema,
  runUsageReport,
  RunUsageReportSchema,
} from "@cadre/company";
import { route } from "./define.js";
import { companyScope, runScope } from "./scopes.js";

export const usageRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/usage",
    summary:
      "The company's usage: totals, per agent and per run (tokens, cost from the registry's prices, cache hit rate).",
    access: "company",
    scope: companyScope,
    response: {
      status: 200,
      description: "The company's totals, per agent and per run.",
      schema: CompanyUsageReportSchema,
    },
    async handle({ ctx, scope }) {
      return companyUsageReport(ctx.store, scope.companyId);
    },
  }),
  route({
    method: "get",
    path: "/api/runs/{id}/usage",
    summary: "A run's usage, with one entry per model call (turn) in order.",
    access: "company",
    scope: runScope,
    response: {
      status: 200,
      description: "The run's usage, with one entry per model call (turns).",
      schema: RunUsageReportSchema,
    },
    async handle({ ctx, scope }) {
      return runUsageReport(ctx.store, scope.run.id);
    },
  }),
];
