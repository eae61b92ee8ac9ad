// `cadre demo`: a company from the built-in template, its CEO's wake streamed live, a summary.
import { CONNECTOR_KINDS, type ConnectorKind, usageSummaryJson } from "@cadre/model";
import { type CompanyRow, type Store } from "@cadre/store";
import {
  findOrCreateCompany,
  loadCompanyState,
  preferredConnectorKind,
  readiness,
  defaultEnabledModels,
  wakeAgent,
  type WakeResult,
} from "@cadre/company";
import { findModel, summariseUsage } from "@cadre/core";
// `--faults` rehearses failures on the offline connector, whose fault injection is `@cadre/core/testing`.
import { FAULT_DESCRIPTIONS, FAULT_NAMES, type FaultName, parseFaultList } from "@cadre/core/testing";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData, recoverInterruptedRuns, storeEnv } from "../context.js";
import { cancelOnSignals } from "../signals.js";
import { type CliIO, UsageError } from "../io.js";
import { createRenderer } from "../render.js";
import { parseProfile, withProfile } from "../client/legacy-server.js";
import { formatUsage } from "../usage-format.js";
import { sessionLine } from "./sessions.js";

export const DEMO_HELP = `Usage: cadre demo [--data DIR] [--database URL] [--connector ID] [--seed N] [--profile semantic|legacy] [--faults LIST] [--json]

Creates a company from the built-in template (or reuses the one already in DIR), wakes its CEO and
streams what happens: the cue, each tool call with its arguments and result, each hire, the approval
filed, usage. Ends with a summary. Run it again on the same DIR to see the CEO in its next mode.

Ctrl-C (SIGINT) or SIGTERM cancels the wake: the run ends cancelled, its usage recorded, and the
command exits 130 / 143. Runs of earlier commands whose process died are ended first, as
interrupted. While the CEO runs a wake in another process, the demo is refused (exit 2).

Options:
  --data DIR        data directory (default ./.cadre); the embedded SQLite store lives there
${DATABASE_HELP}
  --connector ID    connector for the CEO of a new company: ${CONNECTOR_KINDS.join(", ")}
                    (default: anthropic or openai when its API key is set, else offline)
  --seed N          seed of the offline model's variation (default: random per run)
  --profile P       the CEO's prompt profile for this wake: semantic (default) or legacy, the old
                    hard-coded turn whose bash tool hires by node -e fetch POSTs (C4-7)
  --faults LIST     rehearse failures on the offline connector (comma-separated); the --json summary
                    then also carries terminal, replays and rollovers:
${FAULT_NAMES.map((n) => `                      ${n.padEnd(24)}${FAULT_DESCRIPTIONS[n]}`).join("\n")}
  --json            end with one JSON line: the summary of SPEC §4, with session: { harness, id,
                    resumed, rolledOver } (a demo run again continues the CEO's session)
  -h, --help        this help`;

export const DEMO_TEMPLATE = {
  name: "Northwind Robotics",
  goal: "Build autonomous warehouse robots and sell them to mid-sized logistics companies.",
};

async function ensureCompany(
  store: Store,
  io: CliIO,
  connector: string | undefined,
): Promise<{ company: CompanyRow; created: boolean }> {
  const reuse = (company: CompanyRow) => {
    if (connector) io.out(`note: reusing company ${company.id}; --connector only applies to a new company\n`);
    return { company, created: false };
  };
  const existing = await store.listCompanies();
  if (existing.length > 0) return reuse(existing[0] as CompanyRow);
  const kind = (connector ?? preferredConnectorKind(io.env)) as ConnectorKind;
  if (!CONNECTOR_KINDS.includes(kind))
    throw new UsageError(
      `demo: --connector must be one of ${CONNECTOR_KINDS.join(", ")} (got "${connector}")`,
    );
  if (kind !== "offline") {
    const state = readiness({ kind, config: {}, enabledModels: defaultEnabledModels(kind) }, io.env);
    if (!state.ready)
      throw new UsageError(
        `demo: connector ${kind} is not ready: ${state.missing}. Use --connector offline to run without keys.`,
      );
  }
  // Find-or-create in one transaction: demos started at once on an empty DIR make one company.
  const result = await findOrCreateCompany(
    store,
    { ...DEMO_TEMPLATE, connectors: kind === "offline" ? [] : [{ kind }], ceoConnectorId: kind },
    async (tx) => (await tx.listCompanies())[0],
  );
  return result.created ? result : reuse(result.company);
}

export async function demoCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse("demo", args, {
    ...STORE_OPTIONS,
    connector: { type: "string" },
    seed: { type: "string" },
    profile: { type: "string" },
    faults: { type: "string" },
  });
  if (values.help) {
    io.out(`${DEMO_HELP}\n`);
    return 0;
  }
  const seed = values.seed;
  const profile = parseProfile("demo", values.profile);
  if (seed !== undefined && !/^\d{1,15}$/.test(seed))
    throw new UsageError(`demo: --seed must be a whole number (got "${seed}")`);
  const faults: FaultName[] | undefined =
    values.faults === undefined ? undefined : parseFaultList(values.faults);
  if (faults && values.connector !== undefined && values.connector !== "offline")
    throw new UsageError(
      `demo: --faults rehearses failures on the offline connector only (got --connector ${values.connector})`,
    );
  const { dataDir, store, databaseUrl } = await openData(values, io.env);
  const signals = cancelOnSignals(io);
  try {
    await recoverInterruptedRuns(store, io);
    // A rehearsal never creates a company on a real provider: with --faults, a new company is offline.
    const { company, created } = await ensureCompany(
      store,
      io,
      values.connector ?? (faults ? "offline" : undefined),
    );
    const before = await loadCompanyState(store, company.id);
    const connector = before.connectors.find((c) => c.id === before.ceo.connectorId);
    if (faults && connector?.kind !== "offline")
      throw new UsageError(
        `demo: --faults rehearses failures on the offline connector only; this company's CEO runs on ${before.ceo.connectorId}`,
      );
    io.out(`cadre demo — data in ${dataDir}\n`);
    io.out(
      `company   ${company.name} (${company.id})${created ? ", created from the built-in template" : ", reused"}\n`,
    );
    io.out(`goal      ${company.goal}\n`);
    io.out(
      `CEO       ${before.ceo.id} on ${before.ceo.connectorId}/${before.ceo.model}${connector?.kind === "offline" ? " — OFFLINE scripted model, no network, no key" : ""}\n`,
    );
    io.out(`mode      ${before.mode} (${before.modeReason})\n`);
    const render = createRenderer(io.out, "CEO");
    const result: WakeResult = await withProfile(
      { store, dataDir, io, agentId: before.ceo.id, profile },
      (byProfile) =>
        wakeAgent({
          ...byProfile,
          store,
          agentId: before.ceo.id,
          dataDir,
          env: storeEnv(io.env, databaseUrl),
          ...(before.mode === "team-building" ? { trigger: "start_team_building" as const } : {}),
          ...(seed !== undefined ? { seed: Number(seed) } : {}),
          ...(faults ? { faults } : {}),
          signal: signals.signal,
          onStart: ({ cue, cueTokens }) => io.out(`cue       "${cue}" (${cueTokens} tokens, o200k_base)\n`),
          onEvent: render,
        }),
    );
    const interrupted = signals.received();
    if (interrupted && result.terminal === "cancelled")
      io.err(`run ${result.run.id} cancelled by ${interrupted}; usage recorded\n`);
    const agents = await store.listAgents(company.id);
    const approvals = await store.listApprovals(company.id);
    const hires = agents.filter((a) => !a.isCeo);
    io.out(`\nSummary\n`);
    io.out(`  CEO mode   ${result.modeBefore} → ${result.modeAfter}\n`);
    io.out(
      `  team       ${hires.length} hire(s): ${hires.map((a) => `${a.name} (${a.role}, via ${a.via})`).join("; ") || "none"}\n`,
    );
    for (const a of approvals) io.out(`  approval   ${a.id} ${a.type} — ${a.status}\n`);
    const u = result.usage;
    // The usage module's figures (cost from the registry's prices), as `cadre usage --run` shows them.
    const summary = summariseUsage(u, findModel(before.ceo.model));
    io.out(`  usage      ${formatUsage(summary)}\n`);
    io.out(`             details: cadre usage --run ${result.run.id} --data ${dataDir}\n`);
    io.out(
      `  session    ${sessionLine(result.session)}; details: cadre sessions inspect ${result.run.id} --data ${dataDir}\n`,
    );
    if (faults)
      io.out(
        `  rehearsal  faults ${faults.join(", ")} — terminal ${result.terminal}, ${result.replays} replay(s), ${result.rollovers} rollover(s); details: cadre sessions inspect ${result.run.id} --data ${dataDir}\n`,
      );
    const pending = approvals.find((a) => a.status === "pending");
    if (pending)
      io.out(
        `  next       cadre approvals approve ${pending.id} --data ${dataDir}   (or reject / revise, with --note)\n`,
      );
    if (values.json) {
      const line = {
        companyId: company.id,
        ceo: { agentId: before.ceo.id, connectorId: before.ceo.connectorId, model: before.ceo.model },
        ceoMode: result.modeAfter,
        initialCue: { text: result.cue, tokens: result.cueTokens },
        hires: hires.map((a) => ({
          agentId: a.id,
          name: a.name,
          role: a.role,
          department: a.department,
          connectorId: a.connectorId,
          model: a.model,
          via: a.via,
        })),
        approvals: approvals.map((a) => ({ id: a.id, type: a.type, status: a.status })),
        usage: usageSummaryJson(u),
        session: result.session,
        ...(faults
          ? { terminal: result.terminal, replays: result.replays, rollovers: result.rollovers }
          : {}),
      };
      io.out(`${JSON.stringify(line)}\n`);
    }
    return signals.exitCode() ?? (result.terminal === "done" ? 0 : 1);
  } finally {
    signals.dispose();
    await store.close();
  }
}
