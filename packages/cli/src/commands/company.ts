// `cadre company show|create`.
import { createCompany, loadCompanyState, modeOffer, readiness } from "@cadre/company";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData, pickCompany } from "../context.js";
import { type CliIO, UsageError } from "../io.js";
import { modeLines } from "../mode-lines.js";

export const COMPANY_HELP = `Usage:
  cadre company show   [--company ID] [--data DIR] [--database URL] [--json]
  cadre company create --name NAME [--goal TEXT] [--data DIR] [--database URL] [--json]

show    the company, its CEO's mode and why, the tools that mode lets succeed and the
        operator's next step in it, connectors with readiness, team and approvals
create  a new company with a ready offline connector and its CEO

${DATABASE_HELP}`;

export async function companyCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") {
    io.out(`${COMPANY_HELP}\n`);
    return sub ? 0 : 2;
  }
  if (sub === "create") {
    const { values } = parse("company create", rest, {
      ...STORE_OPTIONS,
      name: { type: "string" },
      goal: { type: "string" },
    });
    if (values.help) return (io.out(`${COMPANY_HELP}\n`), 0);
    if (!values.name) throw new UsageError("company create: --name is required");
    const { store } = await openData(values, io.env);
    try {
      const company = await createCompany(store, {
        name: values.name,
        ...(values.goal ? { goal: values.goal } : {}),
      });
      io.out(
        values.json ? `${JSON.stringify(company)}\n` : `created company ${company.name} (${company.id})\n`,
      );
      return 0;
    } finally {
      await store.close();
    }
  }
  if (sub !== "show") throw new UsageError(`company: unknown subcommand "${sub}"; use show or create`);
  const { values } = parse("company show", rest, { ...STORE_OPTIONS, company: { type: "string" } });
  if (values.help) return (io.out(`${COMPANY_HELP}\n`), 0);
  const { dataDir, store } = await openData(values, io.env);
  try {
    const company = await pickCompany(store, values.company, dataDir);
    const state = await loadCompanyState(store, company.id);
    const approvals = await store.listApprovals(company.id);
    const connectors = state.connectors.map((c) => ({
      id: c.id,
      kind: c.kind,
      enabledModels: c.enabledModels,
      ...readiness(c, io.env),
    }));
    const offer = modeOffer(state.mode);
    if (values.json) {
      io.out(
        `${JSON.stringify({ company, ceo: state.ceo, ceoMode: state.mode, ceoModeReason: state.modeReason, toolsInMode: offer.tools, operatorActions: offer.operatorActions, connectors, agents: state.activeAgents, approvals })}\n`,
      );
      return 0;
    }
    io.out(`${company.name} (${company.id})\n  goal: ${company.goal || "(none)"}\n`);
    io.out(
      modeLines({
        mode: state.mode,
        reason: state.modeReason,
        tools: offer.tools,
        operatorActions: offer.operatorActions,
        ceoAgentId: state.ceo.id,
        pendingStrategyId: state.latestStrategy?.status === "pending" ? state.latestStrategy.id : undefined,
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
    io.out(`team (${state.activeAgents.length} active)\n`);
    for (const a of state.activeAgents)
      io.out(
        `  ${a.id}  ${a.name} — ${a.role}${a.department ? `, ${a.department}` : ""} on ${a.connectorId}/${a.model} (via ${a.via})\n`,
      );
    io.out(`approvals (${approvals.length})\n`);
    for (const a of approvals)
      io.out(
        `  ${a.id}  ${a.type} "${a.title}" — ${a.status}${a.decisionNote ? ` (note: ${a.decisionNote})` : ""}\n`,
      );
    return 0;
  } finally {
    await store.close();
  }
}
