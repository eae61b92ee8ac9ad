// Companies: create (with its CEO and a ready connector), list, read.
import { CompanyGoal, CompanyName, createCompany, loadCompanyState } from "@cadre/company";
import { CONNECTOR_KINDS, OneOf, PROMPT_PROFILES, WorkspaceRoot } from "@cadre/model";
import type { CompanyRow } from "@cadre/store";
import { Type } from "typebox";
import { route } from "./define.js";
import { PAGE_QUERY, pageAnswer, pageRequest, PageSchema } from "./pages.js";
import { companyScope } from "./scopes.js";
import { CompanyDetailSchema, companyView } from "./views.js";
import { CompanyListItemSchema, companyListItem, GLANCE_QUERY, glanceSince } from "./company-glance.js";

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
    workspaceRoot: Type.Optional(WorkspaceRoot),
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
    role: "owner",
    body: CreateCompanyBody,
    response: {
      status: 201,
      description: "The company, its CEO and the CEO's mode.",
      schema: CompanyDetailSchema,
    },
    async handle({ ctx, body }) {
      const kind = body.connector ?? "offline";
      const company = await createCompany(ctx.store, {
        name: body.name,
        ...(body.goal !== undefined ? { goal: body.goal } : {}),
        connectors: kind === "offline" ? [] : [{ kind }],
        ceoConnectorId: kind,
        ...(body.profile || body.workspaceRoot !== undefined
          ? {
              settings: {
                ...(body.profile ? { profile: body.profile } : {}),
                ...(body.workspaceRoot !== undefined ? { workspaceRoot: body.workspaceRoot } : {}),
              },
            }
          : {}),
        env: ctx.env,
        probes: ctx.probes,
      });
      return companyView(company, await loadCompanyState(ctx.store, company.id), ctx.env, ctx.probes);
    },
  }),
  route({
    method: "get",
    path: "/api/companies",
    summary:
      "The companies the caller can see (all for an operator of every company, those an operator is limited to, its own for an agent), each with a glance: the CEO's mode, pending decisions, running runs and the spend since `since`.",
    access: "authenticated",
    query: { ...PAGE_QUERY, ...GLANCE_QUERY },
    response: {
      status: 200,
      description: "A page of companies, oldest first.",
      schema: PageSchema(CompanyListItemSchema, "The companies."),
    },
    async handle({ c, ctx, principal }) {
      const page = pageRequest(c);
      const since = glanceSince(c.req.query("since"));
      const companySummaryView = (row: CompanyRow) => companyListItem(ctx.store, row, since);
      // An agent sees its own company only: one page of one row.
      if (principal.kind === "agent") {
        const own =
          page.store.after === undefined
            ? [await ctx.store.getCompany(principal.companyId)].filter((x) => x !== undefined)
            : [];
        return pageAnswer(own, page, (x) => x.createdAt, companySummaryView);
      }
      // An operator limited to some companies: the rows after the cursor, theirs only, then the page.
      if (principal.kind === "operator" && principal.companyIds !== null) {
        const allowed = principal.companyIds;
        const after = page.store.after === undefined ? {} : { after: page.store.after };
        const rows = (await ctx.store.listCompanies(after))
          .filter((x) => allowed.includes(x.id))
          .slice(0, page.store.limit);
        return pageAnswer(rows, page, (x) => x.createdAt, companySummaryView);
      }
      const companies = await ctx.store.listCompanies(page.store);
      return pageAnswer(companies, page, (x) => x.createdAt, companySummaryView);
    },
  }),
  route({
    method: "get",
    path: "/api/companies/{id}",
    summary:
      "A company, with its CEO's mode and why, the tools the mode offers, and its connectors' readiness (when last checked, what failed).",
    access: "company",
    scope: companyScope,
    response: { status: 200, description: "The company.", schema: CompanyDetailSchema },
    async handle({ ctx, scope }) {
      const state = await loadCompanyState(ctx.store, scope.companyId);
      await ctx.readiness.ensure(scope.companyId, state.connectors);
      return companyView(scope.company, state, ctx.env, ctx.probes);
    },
  }),
];
