// Budgets: a company's or an agent's budget, what it has used and its state, and the
// operator's change of it — the same schema and functions as `cadre budgets show|set`.
import { budgetReport, BudgetReportSchema, setBudget, SetBudgetSchema } from "@cadre/company";
import { route } from "./define.js";
import { agentScope, companyScope } from "./scopes.js";

const RESPONSE = {
  status: 200,
  description:
    "The budget (limits, period, warn threshold, used tokens and USD of priced calls, unpriced calls, state), agents' own budgets (for a company), and the company's run caps.",
  schema: BudgetReportSchema,
} as const;

export const budgetRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/budget",
    summary: "The company's budget and what it has used: ok, warning, exhausted, or none (explicitly).",
    access: "company",
    scope: companyScope,
    response: RESPONSE,
    async handle({ ctx, scope }) {
      return budgetReport(ctx.store, { companyId: scope.companyId });
    },
  }),
  route({
    method: "put",
    path: "/api/companies/{id}/budget",
    summary:
      "Change the company's budget (usd, tokens, none, period, warnAt) and run caps (runModelCalls, runToolCalls, runTokens, runUsd, runWallSeconds); fields not given keep their value.",
    access: "operator",
    role: "owner",
    scope: companyScope,
    body: SetBudgetSchema,
    response: RESPONSE,
    async handle({ ctx, scope, body }) {
      return setBudget(ctx.store, { companyId: scope.companyId }, body);
    },
  }),
  route({
    method: "get",
    path: "/api/agents/{id}/budget",
    summary: "The agent's own budget and what it has used (the company's applies as well).",
    access: "company",
    scope: agentScope,
    response: RESPONSE,
    async handle({ ctx, scope }) {
      return budgetReport(ctx.store, { companyId: scope.agent.companyId, agentId: scope.agent.id });
    },
  }),
  route({
    method: "put",
    path: "/api/agents/{id}/budget",
    summary: "Change the agent's own budget (usd, tokens, none, period, warnAt).",
    access: "operator",
    role: "owner",
    scope: agentScope,
    body: SetBudgetSchema,
    response: RESPONSE,
    async handle({ ctx, scope, body }) {
      return setBudget(ctx.store, { companyId: scope.agent.companyId, agentId: scope.agent.id }, body);
    },
  }),
];
