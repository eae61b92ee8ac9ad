// Companies: create (with its CEO and a ready connector), list, read.
import { CompanyGoal, CompanyName, createCompany, loadCompanyState } from "@cadre/company";
import { CONNECTOR_KINDS, OneOf, PROMPT_PROFILES } from "@cadre/model";
import { Type } from "typebox";
import { route } from "./define.js";
import { companyScope } from "./scopes.js";
import { companyView } from "./views.js";

export const CreateCompanyBody = Type.Object(
  {
    name: CompanyName,
    goal: Type.Optional(CompanyGoal),
    connector: Type.Optional(
      OneOf(CONNECTOR_KINDS, {
        description: "Connector kind the CEO runs on (default offline, always present); must be ready.",
      }),
    ),
    profile: Type.Optional(
      OneOf(PROMPT_PROFILES, { description: "Prompt profile of the CEO's wakes; default semantic." }),
    ),
  },
  { additionalProperties: false },
);

export const companyRoutes = [
  route({
    method: "post",
    path: "/api/companies",
    summary:
      "Create a company with its CEO and a ready offline connector (plus the one named by `connector`).",
    access: "operator",
    body: CreateCompanyBody,
    responses: { 201: "The company, its CEO and the CEO's mode." },
    async handle({ c, ctx, body }) {
      const kind = body.connector ?? "offline";
      const company = await createCompany(ctx.store, {
        name: body.name,
        ...(body.goal !== undefined ? { goal: body.goal } : {}),
        connectors: kind === "offline" ? [] : [{ kind }],
        ceoConnectorId: kind,
        ...(body.profile ? { settings: { profile: body.profile } } : {}),
      });
      return c.json(companyView(company, await loadCompanyState(ctx.store, company.id)), 201);
    },
  }),
  route({
    method: "get",
    path: "/api/companies",
    summary: "The companies the caller can see: all for the operator, its own for an agent.",
    access: "authenticated",
    responses: { 200: "A list of companies." },
    async handle({ c, ctx, principal }) {
      const companies = await ctx.store.listCompanies();
      return c.json(
        principal.kind === "agent" ? companies.filter((x) => x.id === principal.companyId) : companies,
      );
    },
  }),
  route({
    method: "get",
    path: "/api/companies/{id}",
    summary: "A company, with its CEO's mode and why, and the tools the mode offers.",
    access: "company",
    scope: companyScope,
    responses: { 200: "The company." },
    async handle({ c, ctx, scope }) {
      return c.json(companyView(scope.company, await loadCompanyState(ctx.store, scope.companyId)));
    },
  }),
];
