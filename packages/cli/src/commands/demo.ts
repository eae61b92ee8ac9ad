// `cadre demo`: a company from the built-in template, its CEO's wake streamed live, a summary. The
// company is made here (the demo creates data); the wake goes through the operator port's local
// adapter, as `cadre wake` does, with the demo's own way of printing its start.
import { CONNECTOR_KINDS, type ConnectorKind, usageSummaryJson } from "@cadre/model";
import { type CompanyRow, type Store } from "@cadre/store";
import {
  findOrCreateCompany,
  loadCompanyState,
  preferredConnectorKind,
  checkReadiness,
  defaultEnabledModels,
} from "@cadre/company";
import { findModel, summariseUsage } from "@cadre/core";
// `--faults` rehearses failures on the offline connector, whose fault injection is `@cadre/core/offline`.
import { FAULT_DESCRIPTIONS, FAULT_NAMES, type FaultName, parseFaultList } from "@cadre/core/offline";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { databaseUrl, DEFAULT_DATA_DIR, openData, recoverInterruptedRuns } from "../context.js";
import { signalExitCode } from "../signals.js";
import { type CliIO, UsageError } from "../io.js";
import { createRenderer } from "../render.js";
import { parseProfile } from "../profiles/wake-profile.js";
import { LocalOperator } from "../operator/local.js";
import type { WakeWatcher } from "../operator/port.js";
import { sessionLine } from "../operator/render/sessions.js";
import { formatUsage } from "../usage-format.js";

export const DEMO_HELP = `Usage: cadre demo [--data DIR] [--database URL] [--connector ID] [--seed N] [--profile semantic|legacy] [--faults LIST] [--json]

Creates a company from the built-in template (or reuses the one already in DIR), wakes its CEO and
streams what happens: the cue, each tool call with its arguments and result, each hire, the approval
filed, usage. Ends with a summary. Run it again on the same DIR to see the CEO in its next mode.

Ctrl-C (SIGINT) or SIGTERM cancels the wake: the run ends cancelled, its usage recorded, and the
command exits 130 / 143. Runs of earlier commands whose process died are ended first, as
interrupted. While the CEO runs a wake in another process, the demo is refused (exit 2).

Options:
  --data DIR        data directory (default ./.cadre; created with its store when missing); the
                    embedded SQLite store lives there
${DATABASE_HELP}
  --connector ID    connector for the CEO of a new company: ${CONNECTOR_KINDS.join(", ")}
                    (default: anthropic or openai when its API key is set, else offline). A local
                    model server (openai-compatible) is set up with \`cadre connectors add\` and
                    \`cadre agents set-model --connector\` first; the demo then reuses that company
  --seed N          seed of the offline model's variation (default: random per run)
  --profile P       the CEO's prompt profile for this wake: semantic (default) or legacy, the old
                    hard-coded turn whose bash tool hires by node -e fetch POSTs
  --faults LIST     rehearse failures on the offline connector (comma-separated); the --json summary
                    then also carries terminal, replays and rollovers:
${FAULT_NAMES.map((n) => `                      ${n.padEnd(24)}${FAULT_DESCRIPTIONS[n]}`).join("\n")}
  --json            stdout holds one JSON line, the run's summary with session: { harness, id,
                    resumed, rolledOver } (a demo run again continues the CEO's session; \`| jq\`
                    reads it); the stream of the wake goes to stderr
  -h, --help        this help`;

export const DEMO_TEMPLATE = {
  name: "Northwind Robotics",
  goal: "Build autonomous warehouse robots and sell them to mid-sized logistics companies.",
};

/** The connector a new company's CEO gets: the one asked for, else the preferred one; it must be ready. */
async function newCompanyConnector(
  connector: string | undefined,
  env: NodeJS.ProcessEnv,
  dataDir: string,
): Promise<ConnectorKind> {
  const data = ` --data ${dataDir}`;
  const kind = (connector ?? preferredConnectorKind(env)) as ConnectorKind;
  if (!CONNECTOR_KINDS.includes(kind))
    throw new UsageError(
      `demo: --connector must be one of ${CONNECTOR_KINDS.join(", ")} (got "${connector}")`,
    );
  if (kind === "openai-compatible")
    // The demo cannot guess a server's URL, models and window: the way out is the connector surface.
    throw new UsageError(
      `demo: connector openai-compatible needs your server's URL and an explicit model with its context window, which a demo cannot guess. ` +
        `Set it up once, then run the demo on it: npx cadre company create --name NAME --goal GOAL${data}; ` +
        `npx cadre connectors add local --kind openai-compatible --base-url http://127.0.0.1:PORT/v1 --models MODEL --context-window N${data}; ` +
        `npx cadre connectors test local${data}; npx cadre agents set-model CEO_ID MODEL --connector local${data}; ` +
        `npx cadre demo${data} (it reuses that company and its CEO's connector). README: "Real models" (the Ollama recipe). ` +
        `Or --connector offline to run without a model server.`,
    );
  if (kind !== "offline") {
    // The key is set: does the endpoint answer? (checked now, before anything is written)
    const state = await checkReadiness({ kind, config: {}, enabledModels: defaultEnabledModels(kind) }, env);
    if (!state.ready)
      throw new UsageError(
        `demo: connector ${kind} is not ready: ${state.missing}. Use --connector offline to run without keys.`,
      );
  }
  return kind;
}

async function ensureCompany(
  store: Store,
  io: CliIO,
  connector: string | undefined,
  dataDir: string,
): Promise<{ company: CompanyRow; created: boolean }> {
  const reuse = (company: CompanyRow) => {
    if (connector) io.out(`note: reusing company ${company.id}; --connector only applies to a new company\n`);
    return { company, created: false };
  };
  const existing = await store.listCompanies();
  if (existing.length > 0) return reuse(existing[0] as CompanyRow);
  const kind = await newCompanyConnector(connector, io.env, dataDir);
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
  // A data dir with no store yet gets a new company: its connector is checked before anything is
  // created, so a refused demo leaves no empty store behind.
  if (
    databaseUrl(values, io.env) === undefined &&
    !existsSync(join(resolve(values.data ?? DEFAULT_DATA_DIR), "cadre.db"))
  )
    await newCompanyConnector(
      values.connector ?? (faults ? "offline" : undefined),
      io.env,
      values.data ?? DEFAULT_DATA_DIR,
    );
  const data = await openData(values, io.env, "create");
  const { dataDir, store } = data;
  try {
    await recoverInterruptedRuns(store, io);
    // A rehearsal never creates a company on a real provider: with --faults, a new company is offline.
    const { company, created } = await ensureCompany(
      store,
      io,
      values.connector ?? (faults ? "offline" : undefined),
      dataDir,
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
    let render: ReturnType<typeof createRenderer> | undefined;
    const watch: WakeWatcher = {
      queued: () => undefined, // in process: never queued
      started: ({ cue, cueTokens }) => {
        io.out(`cue       "${cue}" (${cueTokens} tokens, o200k_base)\n`);
        render = createRenderer(io.out, "CEO");
      },
      event: (event) => render?.(event),
      notice: (line) => io.out(`${line}\n`),
    };
    // On PostgreSQL too the demo's wake runs here: the quickstart needs no worker. SIGINT / SIGTERM
    // cancel it (the adapter's signal guard), as for `cadre wake`.
    const result = await new LocalOperator(data, io).wake(
      {
        agentId: before.ceo.id,
        inProcess: true,
        ...(before.mode === "team-building" ? { trigger: "start_team_building" as const } : {}),
        ...(seed !== undefined ? { seed: Number(seed) } : {}),
        ...(profile ? { profile } : {}),
        ...(faults ? { faults } : {}),
      },
      watch,
    );
    if (result.kind !== "ran") throw new Error("demo: the wake was queued, not run here");
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
    io.out(`             details: npx cadre usage --run ${result.runId} --data ${dataDir}\n`);
    io.out(
      `  session    ${sessionLine(result.session)}; details: npx cadre sessions inspect ${result.runId} --data ${dataDir}\n`,
    );
    if (faults)
      io.out(
        `  rehearsal  faults ${faults.join(", ")} — terminal ${result.terminal}, ${result.replays} replay(s), ${result.rollovers} rollover(s); details: npx cadre sessions inspect ${result.runId} --data ${dataDir}\n`,
      );
    if (result.stopReason) {
      // The run's error already starts with the reason ("budget: the monthly budget…").
      const error = (await store.getRun(result.runId))?.error ?? "";
      const why = error.startsWith(`${result.stopReason}: `) ? error : `${result.stopReason}: ${error}`;
      io.out(`  stopped    ${why}\n             budgets: npx cadre budgets show --data ${dataDir}\n`);
    }
    const pending = approvals.find((a) => a.status === "pending");
    if (pending)
      io.out(
        `  next       npx cadre approvals show ${pending.id} --data ${dataDir}   (the strategy in full)\n             npx cadre approvals approve ${pending.id} --data ${dataDir}   (or reject / revise, with --note)\n`,
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
        // A run stopped by spend control says so (SPEC §5): terminal "failed", stopReason "budget" | "run_cap".
        ...(result.stopReason ? { terminal: result.terminal, stopReason: result.stopReason } : {}),
      };
      io.out(`${JSON.stringify(line)}\n`);
    }
    if (result.interrupted) return signalExitCode(result.interrupted);
    return result.terminal === "done" ? 0 : 1;
  } finally {
    await store.close();
  }
}
