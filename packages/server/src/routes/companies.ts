// Companies: create (with its CEO and a ready connector), list, read.
import { createCompany, loadCompanyState } from "@cadre/company";
import { CONNECTOR_KINDS, type ConnectorKind, type PromptProfile } from "@cadre/model";
import type { BodySpec } from "../http/schema.js";
import { route } from "./define.js";
import { type CompanyScope, companyScope } from "./scopes.js";
import { companyView } from "./views.js";

export const CREATE_COMPANY_BODY: BodySpec = {
  name: { kind: "string", required: true, maxLength: 100, description: "The company's name." },
  goal: {
    kind: "string",
    required: false,
    maxLength: 1000,
    multiline: true,
    description: "What the company is for; the CEO plans its team from it.",
  },
  connector: {
    kind: "string",
    required: false,
    maxLength: 40,
    enum: CONNECTOR_KINDS,
    description: "Connector kind the CEO runs on (default offline, always present); must be ready.",
  },
  profile: {
    kind: "string",
    required: false,
    maxLength: 20,
    enum: ["semantic", "legacy"],
    description: "Prompt profile of the CEO's wakes (C4-7); default semantic.",
  },
};

interface CreateCompanyBody {
  name: string;
  goal?: string;
  connector?: ConnectorKind;
  profile?: PromptProfile;
}

export const companyRoutes = [
  route({
    method: "post",
    path: "/api/companies",
    summary:
      "Create a company with its CEO and a ready offline connector (plus the one named by `connector`).",
    access: "operator",
    body: { spec: CREATE_COMPANY_BODY },
    responses: { 201: "The company, its CEO and the CEO's mode." },
    async handle({ c, ctx, body }) {
      const input = body as CreateCompanyBody;
      const kind = input.connector ?? "offline";
      const company = await createCompany(ctx.store, {
        name: input.name,
        ...(input.goal !== undefined ? { goal: input.goal } : {}),
        connectors: kind === "offline" ? [] : [{ kind }],
        ceoConnectorId: kind,
        ...(input.profile ? { settings: { profile: input.profile } } : {}),
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
  route<CompanyScope>({
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
