// The legacy profile's routes (C4-6): the hire and approval POSTs its CEO's `node -e` fetch calls
// make. Each is the tool's input, validator and handler behind HTTP (records say `via: "http"`);
// GET and DELETE on the same paths are the UI's and stay in routes/. An operator setting retires
// them once the evaluation allows it (G5): they then answer 410, naming the tool that replaced them.
import {
  fileApproval,
  fileApprovalSchema,
  hireAgent,
  hireAgentSchema,
  validateFileApprovalInput,
  validateHireAgentInput,
} from "@cadre/company";
import { InternalError } from "@cadre/core";
import { Type } from "typebox";
import { HttpError } from "../../http/errors.js";
import { httpActor, refusal } from "../../routes/actor.js";
import { route } from "../../routes/define.js";
import { companyScope } from "../../routes/scopes.js";
import { agentView, AgentViewSchema, approvalView, ApprovalViewSchema } from "../../routes/views.js";

export interface LegacyServerOptions {
  /** C4-6/G5: the legacy POST routes answer 410 (`cadre serve --retire-legacy-posts`). */
  retireLegacyPosts: boolean;
}

export function legacyServerOptions(given: Partial<LegacyServerOptions>): LegacyServerOptions {
  return { retireLegacyPosts: given.retireLegacyPosts ?? false };
}

/** C4-6: a retired legacy route answers 410 and names the tool that replaced it. */
export function retired(tool: string): HttpError {
  return new HttpError(410, "gone", `this legacy route is retired; agents use the ${tool} tool instead`);
}

export const legacyRoutes = [
  route({
    method: "post",
    path: "/api/companies/{id}/agents",
    summary: "Legacy hire path: the hire_agent tool's input, schema, rules and record, with via http.",
    access: "company",
    scope: companyScope,
    before: (ctx) => {
      if (ctx.profiles.retireLegacyPosts) throw retired("hire_agent");
    },
    body: hireAgentSchema,
    validate: validateHireAgentInput,
    response: {
      status: 201,
      description:
        "The new agent; or, where the company requires approval for hires and an agent hires, the hire_agent approval filed for it (nobody is hired until the operator approves).",
      schema: Type.Union([AgentViewSchema, ApprovalViewSchema]),
    },
    errors: { 410: "The legacy route is retired; use the hire_agent tool." },
    async handle({ ctx, principal, scope, body }) {
      // Readiness is read from the probes' outcomes inside the hire's transaction: measured first.
      await ctx.readiness.ensure(scope.companyId);
      const result = await hireAgent(
        ctx.store,
        { ...httpActor(principal, scope.companyId), env: ctx.env, probes: ctx.probes },
        body,
      );
      if (!result.ok) throw refusal(result);
      if ("approvalId" in result.value) {
        const filed = await ctx.store.getApproval(result.value.approvalId);
        if (!filed) throw new InternalError(`filed approval ${result.value.approvalId} is not in the store`);
        return approvalView(filed);
      }
      const agent = await ctx.store.getAgent(result.value.agentId);
      if (!agent) throw new InternalError(`hired agent ${result.value.agentId} is not in the store`);
      return agentView(agent);
    },
  }),
  route({
    method: "post",
    path: "/api/companies/{id}/approvals",
    summary: "Legacy approval path: the file_approval tool's input, schema, rules and record, with via http.",
    access: "company",
    scope: companyScope,
    before: (ctx) => {
      if (ctx.profiles.retireLegacyPosts) throw retired("file_approval");
    },
    body: fileApprovalSchema,
    validate: validateFileApprovalInput,
    response: { status: 201, description: "The approval, pending.", schema: ApprovalViewSchema },
    errors: { 410: "The legacy route is retired; use the file_approval tool." },
    async handle({ ctx, principal, scope, body }) {
      const result = await fileApproval(ctx.store, httpActor(principal, scope.companyId), body);
      if (!result.ok) throw refusal(result);
      const approval = await ctx.store.getApproval(result.value.approvalId);
      if (!approval) throw new InternalError(`filed approval ${result.value.approvalId} is not in the store`);
      return approvalView(approval);
    },
  }),
];
