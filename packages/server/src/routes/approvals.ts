// Approvals: the list, the legacy filing route (C4-6: the file_approval input, validator and
// handler, `via: "http"`), and the operator's decisions — of concurrent decisions exactly one wins.
import {
  type Decision,
  DecisionNote,
  decideApproval,
  fileApproval,
  fileApprovalSchema,
  validateFileApprovalInput,
} from "@cadre/company";
import { InternalError } from "@cadre/core";
import { APPROVAL_STATUSES } from "@cadre/model";
import { Type } from "typebox";
import { httpActor, refusal, retired } from "./actor.js";
import { route } from "./define.js";
import { enumQuery } from "./queries.js";
import { approvalScope, companyScope } from "./scopes.js";

export const DecisionBody = Type.Object(
  { note: Type.Optional(DecisionNote) },
  { additionalProperties: false },
);

function decisionRoute(segment: "approve" | "reject" | "request-revision", decision: Decision) {
  return route({
    method: "post",
    path: `/api/approvals/{id}/${segment}`,
    summary: `Decide a pending approval: ${segment.replace("-", " ")} (operator only). Moves the CEO's mode.`,
    access: "operator",
    scope: approvalScope,
    body: DecisionBody,
    responses: {
      200: "The approval and the CEO's mode before and after.",
      409: "The approval was already decided.",
    },
    async handle({ c, ctx, scope, body }) {
      return c.json(await decideApproval(ctx.store, scope.approval.id, decision, body.note ?? null));
    },
  });
}

export const approvalRoutes = [
  route({
    method: "get",
    path: "/api/companies/{id}/approvals",
    summary: "The company's approvals (?status=pending|approved|rejected|revision_requested).",
    access: "company",
    scope: companyScope,
    query: { status: APPROVAL_STATUSES.join(" | ") },
    responses: { 200: "A list of approvals." },
    async handle({ c, ctx, scope }) {
      const status = enumQuery("status", c.req.query("status"), APPROVAL_STATUSES);
      return c.json(await ctx.store.listApprovals(scope.companyId, status ? { status } : {}));
    },
  }),
  route({
    method: "post",
    path: "/api/companies/{id}/approvals",
    summary:
      "Legacy approval path (C4-6): the file_approval tool's input, schema, rules and record, with via http.",
    access: "company",
    scope: companyScope,
    before: (ctx) => {
      if (ctx.legacyPostsRetired) throw retired("file_approval");
    },
    body: fileApprovalSchema,
    validate: validateFileApprovalInput,
    responses: {
      201: "The approval, pending.",
      410: "The legacy route is retired; use the file_approval tool.",
    },
    async handle({ c, ctx, principal, scope, body }) {
      const result = await fileApproval(ctx.store, httpActor(principal, scope.companyId), body);
      if (!result.ok) throw refusal(result);
      const approval = await ctx.store.getApproval(result.value.approvalId);
      if (!approval) throw new InternalError(`filed approval ${result.value.approvalId} is not in the store`);
      return c.json(approval, 201);
    },
  }),
  route({
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
