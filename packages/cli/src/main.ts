// The `cadre` command: a thin layer over @cadre/company. Errors are mapped to exit codes here,
// in one place: 2 for bad usage or input (message on stderr), 1 for a failed job or our bug.
import { UserInputError } from "@cadre/core";
// The audit context alone (no store, no drivers): `cadre --help` stays light.
import { actingAs } from "@cadre/store/audit-context";
import { readFileSync } from "node:fs";
import { type ServerTarget, splitServerOption } from "./client/server-option.js";
import { jsonOnlyStdout } from "./json-stdout.js";
import { type CliIO, UsageError } from "./io.js";

/** The commands of the operator port (operator/port.ts): they work on the store or, with --server, through a running API. */
export const SERVER_COMMANDS = [
  "company",
  "agents",
  "connectors",
  "approvals",
  "wake",
  "sessions",
  "usage",
  "budgets",
  "tasks",
  "schedules",
  "run",
  "runs",
  "operators",
  "audit",
] as const;

export const MAIN_HELP = `cadre — run AI companies whose agents behave predictably

Usage: cadre <command> [options]      (cadre <command> --help for details)

Commands:
  demo                         create a company from the built-in template, wake its CEO, stream it
  company show|create          the company, its CEO mode and why, connectors, team, approvals
  agents list                  the company's agents
  agents set-model AGENT_ID MODEL [--connector ID]
                               switch an agent's model, or move it to another ready connector
  agents terminate AGENT_ID    remove an agent from the team (its keys revoked)
  agents keys list|mint|revoke AGENT_ID
                               an agent's API keys
  connectors list|add|test|remove
                               the company's connectors: readiness (endpoint answered, when, what
                               failed), add one (a local model with its context window), one real
                               test request, remove
  approvals list               the company's approvals
  approvals show ID            an approval's text in full, with its decision, note and who decided
  approvals approve|reject|revise ID [--note TEXT]
                               decide an approval (moves the CEO's mode)
  wake AGENT_ID                wake one agent and stream its run
  run [--until-idle]           run the due wakes (assignments, comments, finished work, schedules)
  tasks list|show|create|assign|comment|close
                               the company's tasks (who works what; what wakes whom is decided in code)
  schedules set|list|remove    agents' schedules (--every 1h | --cron "0 9 * * 1-5"); idle ticks cost nothing
  runs list|why                the company's runs (--status failed --since 1d); why one happened: the
                               chain of causes back to an operator's action or a schedule
  operators add|list|revoke|whoami
                               named operators: a token each, a role (owner, operator, viewer),
                               optionally limited to some companies
  audit [--company ID] [--actor NAME] [--since TIME]
                               who did what: every write by anyone, with what changed
  serve [--port N]             the HTTP API on loopback (prints its URL and the operator token)
  sessions inspect RUN_ID      a run's context state: its session, compaction owner, occupancy, latch
  sessions show|reset AGENT_ID an agent's session across wakes; reset: the next wake starts fresh
  budgets show|set             spend control: a company's or an agent's budget, run caps, use
  usage [--company ID] [--run ID]
                               tokens, cost and cache hit rate per run, per agent, per company
  models list|show ID          the explicit model ids Cadre routes (aliases are refused)
  prompts check|diff|lock|list the system-prompt lock (every text a model's system part can see)
  cache-report [--turns N]     prompt-cache stability of a scripted multi-turn session
  eval scenarios|record|run|compare
                               behaviour evaluation: baselines, comparison, pass^k, gates G1–G5
  translate --from FORMAT      translate a captured vendor stream (stdin) into AgentEvent JSON lines
  mcp --agent ID               the agent's company tools as an MCP server over stdio (Codex, any MCP client)
  standin [--port N] [--policy hire-leads|echo|FILE.json]
                               a stand-in model server on loopback (offline, scripted; real wire protocols)
  migrate --from sqlite:PATH --to postgres://…
                               copy an embedded installation into PostgreSQL, verified per table
  worker --database URL        take wakes from the shared PostgreSQL queue and run them

Common options: --data DIR (default ./.cadre; demo, company create and serve create it, the others
need one that holds data), --json (stdout holds JSON only; the human stream goes to stderr),
-h/--help, --debug (a failure also prints its stack); cadre --version (-v) prints the version
--server URL (with --token TOKEN or CADRE_TOKEN): ${SERVER_COMMANDS.join(", ")}
talk to a running API instead of the local store, and print the same as they do locally
--database URL (or CADRE_DATABASE_URL=postgres://…): every command that opens the store keeps it in
PostgreSQL instead of the data dir's SQLite file; the flag wins over the variable
--otel-endpoint URL (or OTEL_EXPORTER_OTLP_ENDPOINT): export OpenTelemetry GenAI traces over OTLP/HTTP,
one span tree per run (off by default; prompt and completion text only with
OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true)
Exit codes: 0 success, 1 the job failed, 2 bad usage or input, 3 another \`cadre run\` is running the
company's due work (nothing was done)`;

/** Commands whose writes are not the local operator's: a server's callers, a worker's runs, an MCP agent. */
const SYSTEM_COMMANDS = new Set(["serve", "worker", "mcp", "standin"]);

type Command = (args: string[], io: CliIO, server?: ServerTarget) => Promise<number>;

// Each command is loaded on demand, so `cadre --help` or `cadre translate` does not pay for the
// agent core, the SDKs and the store they never use.
const COMMANDS: Record<string, Command> = {
  demo: async (a, io) => (await import("./commands/demo.js")).demoCommand(a, io),
  company: async (a, io, s) => (await import("./commands/company.js")).companyCommand(a, io, s),
  agents: async (a, io, s) => (await import("./commands/agents.js")).agentsCommand(a, io, s),
  connectors: async (a, io, s) => (await import("./commands/connectors.js")).connectorsCommand(a, io, s),
  approvals: async (a, io, s) => (await import("./commands/approvals.js")).approvalsCommand(a, io, s),
  wake: async (a, io, s) => (await import("./commands/wake.js")).wakeCommand(a, io, s),
  run: async (a, io, s) => (await import("./commands/run.js")).runCommand(a, io, s),
  tasks: async (a, io, s) => (await import("./commands/tasks.js")).tasksCommand(a, io, s),
  schedules: async (a, io, s) => (await import("./commands/schedules.js")).schedulesCommand(a, io, s),
  serve: async (a, io) => (await import("./commands/serve.js")).serveCommand(a, io),
  operators: async (a, io, s) => (await import("./commands/operators.js")).operatorsCommand(a, io, s),
  audit: async (a, io, s) => (await import("./commands/audit.js")).auditCommand(a, io, s),
  runs: async (a, io, s) => (await import("./commands/runs.js")).runsCommand(a, io, s),
  usage: async (a, io, s) => (await import("./commands/usage.js")).usageCommand(a, io, s),
  budgets: async (a, io, s) => (await import("./commands/budgets.js")).budgetsCommand(a, io, s),
  sessions: async (a, io, s) => (await import("./commands/sessions.js")).sessionsCommand(a, io, s),
  models: async (a, io) => (await import("./commands/models.js")).modelsCommand(a, io),
  prompts: async (a, io) => (await import("./commands/prompts.js")).promptsCommand(a, io),
  "cache-report": async (a, io) => (await import("./commands/cache-report.js")).cacheReportCommand(a, io),
  migrate: async (a, io) => (await import("./commands/migrate.js")).migrateCommand(a, io),
  worker: async (a, io) => (await import("./commands/worker.js")).workerCommand(a, io),
  mcp: async (a, io) => (await import("./commands/mcp.js")).mcpCommand(a, io),
  standin: async (a, io) => (await import("./commands/standin.js")).standinCommand(a, io),
  eval: async (a, io) => (await import("./commands/eval.js")).evalCommand(a, io),
  translate: async (a, io) =>
    (await import("./commands/translate.js")).translateCommand(a, {
      stdin: io.stdin,
      stdout: (line) => io.out(`${line}\n`),
      stderr: (line) => io.err(`${line}\n`),
    }),
};

/** The version of this `cadre` (its package's). */
export function cadreVersion(): string {
  const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  return pkg.version;
}

/** An error's message on one line (a bad input is said in one line on stderr). */
function oneLine(text: string): string {
  return text.replace(/\s*\n\s*/g, " ").trim();
}

export async function main(argv: string[], io: CliIO): Promise<number> {
  // --debug (anywhere): a failure also prints its stack; without it, errors are one line.
  const debug = argv.includes("--debug");
  const [name, ...args] = argv.filter((a) => a !== "--debug");
  if (name === "--help" || name === "-h" || name === "help") return (io.out(`${MAIN_HELP}\n`), 0);
  if (name === "--version" || name === "-v" || name === "version")
    return (io.out(`cadre ${cadreVersion()}\n`), 0);
  if (!name) {
    io.err(`cadre: a command is required: ${Object.keys(COMMANDS).join(", ")} (see cadre --help)\n`);
    return 2;
  }
  const command = COMMANDS[name];
  if (!command) {
    io.err(
      `cadre: unknown command "${name}". Commands: ${Object.keys(COMMANDS).join(", ")}. See cadre --help.\n`,
    );
    return 2;
  }
  // With --json, stdout holds JSON only; the human stream goes to stderr (json-stdout.ts).
  const json = args.includes("--json") ? jsonOnlyStdout(io) : undefined;
  let stopTracing: (() => Promise<void>) | undefined;
  const commandIO = json?.io ?? io;
  try {
    const { args: afterOtel, endpoint } = splitOtelOption(args);
    const { args: rest, target } = splitServerOption(afterOtel, io.env);
    // OpenTelemetry export, off unless asked for (--otel-endpoint, or OTEL_EXPORTER_OTLP_ENDPOINT).
    const otel =
      endpoint ?? io.env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] ?? io.env["OTEL_EXPORTER_OTLP_ENDPOINT"];
    if (otel) {
      const tracing = await import("@cadre/company");
      try {
        tracing.tracesUrl(otel);
      } catch (error) {
        throw new UsageError(`--otel-endpoint: ${(error as Error).message}`);
      }
      await tracing.startTracing({
        endpoint: otel,
        captureContent: io.env["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] === "true",
      });
      stopTracing = tracing.stopTracing;
    }
    if (target && !(SERVER_COMMANDS as readonly string[]).includes(name))
      throw new UsageError(
        `${name} does not work with --server; these do: ${SERVER_COMMANDS.join(", ")} (cadre COMMAND --help)`,
      );
    // Local commands write as the bootstrap owner, "operator" (whoever holds the data directory); serve and
    // worker record each request's caller or the system, mcp its agent.
    if (SYSTEM_COMMANDS.has(name)) return await command(rest, commandIO, target);
    return await actingAs({ type: "operator", name: "operator" }, () => command(rest, commandIO, target));
  } catch (error) {
    const stack = debug && error instanceof Error && error.stack ? `${error.stack}\n` : "";
    if (error instanceof UsageError || error instanceof UserInputError) {
      // Messages from subcommands already start with their name ("approvals list: …").
      const message = oneLine(error.message);
      io.err(`${message.startsWith(name) ? `cadre ${message}` : `cadre ${name}: ${message}`}\n${stack}`);
      return 2;
    }
    const message = oneLine(error instanceof Error ? error.message : String(error));
    io.err(`cadre ${name} failed: ${message}${debug ? "" : " (--debug shows where)"}\n${stack}`);
    return 1;
  } finally {
    // The last runs' spans are sent before the process ends (a collector that does not answer is
    // given up on by the exporter's own timeout).
    await stopTracing?.().catch(() => undefined);
    json?.flush();
  }
}

/** `--otel-endpoint URL` (any command), taken out of the arguments. */
function splitOtelOption(args: string[]): { args: string[]; endpoint: string | undefined } {
  const out: string[] = [];
  let endpoint: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === "--otel-endpoint") {
      endpoint = args[i + 1];
      if (endpoint === undefined || endpoint.startsWith("--"))
        throw new UsageError("--otel-endpoint needs a URL, e.g. http://127.0.0.1:4318");
      i++;
    } else if (arg.startsWith("--otel-endpoint=")) endpoint = arg.slice("--otel-endpoint=".length);
    else out.push(arg);
  }
  return { args: out, endpoint };
}
