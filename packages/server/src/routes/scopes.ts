// Resolving the resource a path names, and the company it belongs to. A missing resource is a 404
// whoever asks; a resource of another company is then a 403 for an agent (see auth/access.ts).
import { NotFoundError } from "@cadre/core";
import type { AgentRow, ApprovalRow, CompanyRow, RunRow } from "@cadre/store";
import type { ServerContext } from "../context.js";

export interface CompanyScope {
  companyId: string;
  company: CompanyRow;
}
export interface AgentScope {
  companyId: string;
  agent: AgentRow;
}
export interface ApprovalScope {
  companyId: string;
  approval: ApprovalRow;
}
export interface RunScope {
  companyId: string;
  run: RunRow;
}

const param = (params: Record<string, string>, name: string): string => params[name] ?? "";

export async function companyScope(
  ctx: ServerContext,
  params: Record<string, string>,
): Promise<CompanyScope> {
  const company = await ctx.store.getCompany(param(params, "id"));
  if (!company) throw new NotFoundError(`company ${param(params, "id")} not found`);
  return { companyId: company.id, company };
}

export async function agentScope(ctx: ServerContext, params: Record<string, string>): Promise<AgentScope> {
  const agent = await ctx.store.getAgent(param(params, "id"));
  if (!agent) throw new NotFoundError(`agent ${param(params, "id")} not found`);
  return { companyId: agent.companyId, agent };
}

export async function approvalScope(
  ctx: ServerContext,
  params: Record<string, string>,
): Promise<ApprovalScope> {
  const approval = await ctx.store.getApproval(param(params, "id"));
  if (!approval) throw new NotFoundError(`approval ${param(params, "id")} not found`);
  return { companyId: approval.companyId, approval };
}

export async function runScope(ctx: ServerContext, params: Record<string, string>): Promise<RunScope> {
  const run = await ctx.store.getRun(param(params, "id"));
  if (!run) throw new NotFoundError(`run ${param(params, "id")} not found`);
  return { companyId: run.companyId, run };
}
