// Approvals: the list, the legacy filing route (C4-6: the file_approval input, validator and
// handler, `via: "http"`), and the operator's decisions — of concurrent decisions exactly one wins.
import {
  type Decision,
  decideApproval,
  FILE_APPROVAL_FIELDS,
  type FileApprovalInput,
  fileApproval,
  validateFileApprovalInput,
} from "@cadre/company";
import { InternalError } from "@cadre/core";
import type { BodySpec } from "../http/schema.js";
import { httpActor, refusal, retired } from "./actor.js";
import { route } from "./define.js";
import { enumQuery } from "./queries.js";
import { type ApprovalScope, approvalScope, type CompanyScope, companyScope } from "./scopes.js";

export const DECISION_BODY: BodySpec = {
  note: {
    kind: "string",
    required: false,
    maxLength: 2000,
    multiline: true,
    description: "The operator's note; the CEO reads it on its next wake.",
  },
};

const STATUSES = ["pending", "approved", "rejected", "revision_requested"] as const;

function decisionRoute(segment: "approve" | "reject" | "request-revision", decision: Decision) {
  return route<ApprovalScope>({
    method: "post",
    path: `/api/approvals/{id}/${segment}`,
    summary: `Decide a pending approval: ${segment.replace("-", " ")} (operator only). Moves the CEO's mode.`,
    access: "operator",
    scope: approvalScope,
    body: { spec: DECISION_BODY },
    responses: {
      200: "The approval and the CEO's mode before and after.",
      409: "The approval was already decided.",
    },
    async handle({ c, ctx, scope, body }) {
      return c.json(
        await decideApproval(
          ctx.store,
          scope.approval.id,
          decision,
          (body as { note?: string }).note ?? null,
        ),
      );
    },
  });
}

export const approvalRoutes = [
  route<CompanyScope>({
    method: "get",
    path: "/api/companies/{id}/approvals",
    summary: "The company's approvals (?status=pending|approved|rejected|revision_requested).",
    access: "company",
    scope: companyScope,
    query: { status: STATUSES.join(" | ") },
    responses: { 200: "A list of approvals." },
    async handle({ c, ctx, scope }) {
      const status = enumQuery("status", c.req.query("status"), STATUSES);
      return c.json(await ctx.store.listApprovals(scope.companyId, status ? { status } : {}));
    },
  }),
  route<CompanyScope>({
    method: "post",
    path: "/api/companies/{id}/approvals",
    summary:
      "Legacy approval path (C4-6): the file_approval tool's input, schema, rules and record, with via http.",
    access: "company",
    scope: companyScope,
    before: (ctx) => {
      if (ctx.legacyPostsRetired) throw retired("file_approval");
    },
    body: { spec: FILE_APPROVAL_FIELDS, validate: validateFileApprovalInput },
    responses: {
      201: "The approval, pending.",
      410: "The legacy route is retired; use the file_approval tool.",
    },
    async handle({ c, ctx, principal, scope, body }) {
      const result = await fileApproval(
        ctx.store,
        httpActor(principal, scope.companyId),
        body as FileApprovalInput,
      );
      if (!result.ok) throw refusal(result);
      const approval = await ctx.store.getApproval(result.value.approvalId);
      if (!approval) throw new InternalError(`filed approval ${result.value.approvalId} is not in the store`);
      return c.json(approval, 201);
    },
  }),
  route<ApprovalScope>({
    method: "get",
    path: "/api/approvals/{id}",
    summary: "One approval, with its history.",
    access: "company",
    scope: approvalScope,
    responses: { 200: "The approval and its status changes." },
    async handle({ c, ctx, scope }) {
      return c.json({ ...scope.approval, history: await ctx.store.listApprovalEvents(scope.approval.id) });
    },
  }),
  decisionRoute("approve", "approve"),
  decisionRoute("reject", "reject"),
  decisionRoute("request-revision", "revise"),
];
