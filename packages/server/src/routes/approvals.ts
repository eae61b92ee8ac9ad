// Approvals: the list and the operator's decisions — of concurrent decisions exactly one wins. (The
// filing POST on the list's path is a prompt profile's route: profiles/.)
import { type Decision, DecisionNote, decideApproval, loadCompanyState } from "@cadre/company";
import { APPROVAL_STATUSES } from "@cadre/model";
import { Type } from "typebox";
import { route } from "./define.js";
import { PAGE_QUERY, pageAnswer, pageRequest, PageSchema } from "./pages.js";
import { enumQuery } from "./queries.js";
import { approvalScope, companyScope } from "./scopes.js";
import {
  approvalHistoryView,
  ApprovalHistoryViewSchema,
  approvalInboxView,
  ApprovalViewSchema,
  decisionView,
  DecisionViewSchema,
} from "./views.js";

export const DecisionBody = Type.Object(
  { note: Type.Optional(DecisionNote) },
  { additionalProperties: false },
);

function decisionRoute<const G extends "approve" | "reject" | "request-revision">(
  segment: G,
  decision: Decision,
) {
  return route({
    method: "post",
    path: `/api/approvals/{id}/${segment}` as const,
    summary: `Decide a pending approval: ${segment.replace("-", " ")} (operator only). Moves the CEO's mode.`,
    access: "operator",
    scope: approvalScope,
    body: DecisionBody,
    response: {
      status: 200,
      description: "The approval and the CEO's mode before and after.",
      schema: DecisionViewSchema,
    },
    errors: { 409: "The approval was already decided." },
    async handle({ ctx, scope, body, principal }) {
      // Recorded by name: the approval's history, its wake's cause and the audit log say who decided.
      const by = principal.kind === "operator" ? principal.name : "operator";
      return decisionView(
        await decideApproval(ctx.store, scope.approval.id, decision, body.note ?? null, by, {
          env: ctx.env,
          probes: ctx.probes,
        }),
      );
    },
  });
}

export const approvalRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/approvals",
    summary:
      "The company's approvals (?status=pending|approved|rejected|revision_requested), each with who decided it and, while pending, the CEO's mode after each decision.",
    access: "company",
    scope: companyScope,
    query: { status: APPROVAL_STATUSES.join(" | "), ...PAGE_QUERY },
    response: {
      status: 200,
      description: "A page of approvals, oldest first.",
      schema: PageSchema(ApprovalViewSchema, "The approvals."),
    },
    async handle({ c, ctx, scope }) {
      const status = enumQuery("status", c.req.query("status"), APPROVAL_STATUSES);
      const page = pageRequest(c);
      const [approvals, state] = await Promise.all([
        ctx.store.listApprovals(scope.companyId, { ...(status ? { status } : {}), page: page.store }),
        loadCompanyState(ctx.store, scope.companyId),
      ]);
      return pageAnswer(
        approvals,
        page,
        (a) => a.createdAt,
        async (a) => approvalInboxView(a, await ctx.store.listApprovalEvents(a.id), state),
      );
    },
  }),
  route({
    method: "get",
    path: "/api/approvals/{id}",
    summary: "One approval, with its history.",
    access: "company",
    scope: approvalScope,
    response: {
      status: 200,
      description: "The approval and its status changes.",
      schema: ApprovalHistoryViewSchema,
    },
    async handle({ ctx, scope }) {
      return approvalHistoryView(scope.approval, await ctx.store.listApprovalEvents(scope.approval.id));
    },
  }),
  decisionRoute("approve", "approve"),
  decisionRoute("reject", "reject"),
  decisionRoute("request-revision", "revise"),
];
