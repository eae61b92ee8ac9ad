// The commands that work against a running API (--server): company show, agents list,
// approvals list|approve|reject|revise, wake. Same options and output as the local commands, minus
// --data (the server has its own).
import type {
  AgentView,
  ApprovalView,
  CompanySummaryView,
  CompanyView,
  ConnectorView,
  DecisionView,
  ModelChangeView,
} from "@cadre/server";
import { parse } from "../args.js";
import { type CliIO, UsageError } from "../io.js";
import { ApiClient, type ServerTarget } from "./api-client.js";
import { remoteWake } from "./remote-wake.js";
import { modeLines } from "../mode-lines.js";
import { agentsTable, modelChangeLine } from "../commands/agents.js";
import { APPROVAL_STATUSES, type ApprovalStatus } from "@cadre/model";

export const REMOTE_COMMANDS = [
  "company show",
  "agents list",
  "agents set-model",
  "approvals list|approve|reject|revise",
  "wake",
];

const OPTIONS = { json: { type: "boolean" }, help: { type: "boolean", short: "h" } } as const;
const DECISION_PATH = { approve: "approve", reject: "reject", revise: "request-revision" } as const;

/** The company named by --company, or the only one the token can see. */
async function pickCompany(
  api: ApiClient,
  companyId: string | undefined,
  target: ServerTarget,
): Promise<CompanyView> {
  if (companyId) return api.get<CompanyView>(`/api/companies/${encodeURIComponent(companyId)}`);
  const companies = await api.get<CompanySummaryView[]>("/api/companies");
  if (companies.length === 0) throw new UsageError(`no company on ${target.url} yet`);
  if (companies.length > 1)
    throw new UsageError(
      `${target.url} holds ${companies.length} companies; pick one with --company ID: ${companies.map((c) => `${c.id} (${c.name})`).join(", ")}`,
    );
  return api.get<CompanyView>(`/api/companies/${(companies[0] as CompanySummaryView).id}`);
}

async function companyShow(api: ApiClient, args: string[], io: CliIO, target: ServerTarget): Promise<number> {
  const { values } = parse("company show", args, { ...OPTIONS, company: { type: "string" } });
  const company = await pickCompany(api, values.company, target);
  const base = `/api/companies/${company.id}`;
  const [connectors, agents, approvals] = await Promise.all([
    api.get<ConnectorView[]>(`${base}/connectors`),
    api.get<AgentView[]>(`${base}/agents?status=active`),
    api.get<ApprovalView[]>(`${base}/approvals`),
  ]);
  const { ceoAgentId, ceoMode, ceoModeReason, toolsInMode, operatorActions, ...row } = company;
  if (values.json) {
    const ceo = agents.find((a) => a.id === ceoAgentId);
    io.out(
      `${JSON.stringify({ company: row, ceo, ceoMode, ceoModeReason, toolsInMode, operatorActions, connectors, agents, approvals })}\n`,
    );
    return 0;
  }
  io.out(`${company.name} (${company.id}) — via ${target.url}\n  goal: ${company.goal || "(none)"}\n`);
  io.out(
    modeLines({
      mode: ceoMode,
      reason: ceoModeReason,
      tools: toolsInMode,
      operatorActions,
      ceoAgentId,
      pendingStrategyId: approvals.findLast(
        (a) => a.type === "approve_ceo_strategy" && a.status === "pending",
      )?.id,
    }),
  );
  io.out(
    `  settings: max team ${company.settings.maxTeamSize}, hire approval ${company.settings.requireHireApproval ? "required" : "not required"}, profile ${company.settings.profile}\n`,
  );
  io.out(`connectors\n`);
  for (const c of connectors)
    io.out(
      `  ${c.id} (${c.kind}) ${c.ready ? "ready" : `NOT READY: ${c.missing}`} — models ${c.enabledModels.join(", ")}\n`,
    );
  io.out(`team (${agents.length} active)\n`);
  for (const a of agents)
    io.out(
      `  ${a.id}  ${a.name} — ${a.role}${a.department ? `, ${a.department}` : ""} on ${a.connectorId}/${a.model} (via ${a.via})\n`,
    );
  io.out(`approvals (${approvals.length})\n`);
  for (const a of approvals)
    io.out(
      `  ${a.id}  ${a.type} "${a.title}" — ${a.status}${a.decisionNote ? ` (note: ${a.decisionNote})` : ""}\n`,
    );
  return 0;
}

async function agentsList(api: ApiClient, args: string[], io: CliIO, target: ServerTarget): Promise<number> {
  const { values } = parse("agents list", args, {
    ...OPTIONS,
    company: { type: "string" },
    all: { type: "boolean" },
  });
  const company = await pickCompany(api, values.company, target);
  const agents = await api.get<AgentView[]>(
    `/api/companies/${company.id}/agents${values.all ? "" : "?status=active"}`,
  );
  if (values.json) return (io.out(`${JSON.stringify(agents)}\n`), 0);
  io.out(agentsTable(agents));
  return 0;
}

/** Through the server: a running wake's live session is asked first, in its session lock (MC-13). */
async function agentsSetModel(api: ApiClient, args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse("agents set-model", args, OPTIONS, 2);
  const [agentId, model] = positionals;
  if (!agentId || !model) throw new UsageError("agents set-model: AGENT_ID and MODEL are required");
  const change = await api.patch<ModelChangeView>(`/api/agents/${encodeURIComponent(agentId)}/model`, {
    model,
  });
  io.out(values.json ? `${JSON.stringify(change)}\n` : modelChangeLine(change));
  return 0;
}

async function approvals(
  api: ApiClient,
  sub: string | undefined,
  args: string[],
  io: CliIO,
  target: ServerTarget,
): Promise<number> {
  if (sub === "list") {
    const { values } = parse("approvals list", args, {
      ...OPTIONS,
      company: { type: "string" },
      status: { type: "string" },
    });
    const status = values.status as ApprovalStatus | undefined;
    if (status && !APPROVAL_STATUSES.includes(status))
      throw new UsageError(`approvals list: --status must be one of ${APPROVAL_STATUSES.join(", ")}`);
    const company = await pickCompany(api, values.company, target);
    const list = await api.get<ApprovalView[]>(
      `/api/companies/${company.id}/approvals${status ? `?status=${status}` : ""}`,
    );
    if (values.json) return (io.out(`${JSON.stringify(list)}\n`), 0);
    if (list.length === 0) io.out("no approvals\n");
    for (const a of list)
      io.out(
        `${a.id}  ${a.type}  ${a.status.padEnd(18)} "${a.title}" (via ${a.via})${a.decisionNote ? ` note: ${a.decisionNote}` : ""}\n`,
      );
    return 0;
  }
  if (sub !== "approve" && sub !== "reject" && sub !== "revise")
    throw new UsageError(`approvals: unknown subcommand "${sub ?? ""}"; use list, approve, reject or revise`);
  const { values, positionals } = parse(
    `approvals ${sub}`,
    args,
    { ...OPTIONS, note: { type: "string" } },
    1,
  );
  const id = positionals[0];
  if (!id)
    throw new UsageError(`approvals ${sub}: the approval ID is required (see \`cadre approvals list\`)`);
  const result = await api.post<DecisionView>(
    `/api/approvals/${encodeURIComponent(id)}/${DECISION_PATH[sub]}`,
    values.note !== undefined ? { note: values.note } : {},
  );
  if (values.json) return (io.out(`${JSON.stringify(result)}\n`), 0);
  io.out(
    `${result.approval.id} is now ${result.approval.status}${result.approval.decisionNote ? ` (note: ${result.approval.decisionNote})` : ""}\n`,
  );
  io.out(`CEO mode: ${result.modeBefore} → ${result.modeAfter}\n`);
  return 0;
}

export async function remoteCommand(
  name: string,
  args: string[],
  io: CliIO,
  target: ServerTarget,
): Promise<number> {
  if (args.includes("--data") || args.some((a) => a.startsWith("--data=")))
    throw new UsageError(`${name}: --data has no meaning with --server (the server keeps its own data)`);
  const api = new ApiClient(target);
  const [sub, ...rest] = args;
  if (name === "company" && sub === "show") return companyShow(api, rest, io, target);
  if (name === "agents" && sub === "list") return agentsList(api, rest, io, target);
  if (name === "agents" && sub === "set-model") return agentsSetModel(api, rest, io);
  if (name === "approvals") return approvals(api, sub, rest, io, target);
  if (name === "wake") return remoteWake(api, args, io);
  throw new UsageError(
    `${name}${sub && !sub.startsWith("-") ? ` ${sub}` : ""} does not work with --server; these do: ${REMOTE_COMMANDS.join(", ")}`,
  );
}
