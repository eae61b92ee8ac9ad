// `cadre budgets show|set`: a company's or an agent's budget and what it has used.
// An operator port operation (local store or --server): @cadre/company's setBudget / budgetReport
// locally, GET/PUT /api/companies/{id}/budget and /api/agents/{id}/budget over HTTP (same schema).
import type { SetBudgetInput } from "@cadre/company";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError } from "../io.js";
import { agentIdOf } from "../operator/agent-ref.js";
import { withOperator } from "../operator/open.js";
import { budgetText } from "../operator/render/budgets.js";

export const BUDGETS_HELP = `Usage: cadre budgets show [--company ID] [--agent ID] [--data DIR] [--database URL] [--json]
       cadre budgets set [--company ID] [--agent ID] (--usd X | --tokens N | --none) [--period month|total]
                         [--warn-at F] [--run-model-calls N] [--run-tool-calls N] [--run-tokens N]
                         [--run-usd X] [--run-wall-seconds N] [--data DIR] [--database URL] [--json]
       cadre budgets price [--company ID] --model ID --input X --output Y [--cache-read X]
                         [--cache-write X] [--since YYYY-MM-DD] [--data DIR] [--database URL] [--json]

Spend control, enforced in code before every model call (fail closed). A company starts with a
monthly budget of $10 and per-run caps (100 model calls, 200 tool calls, 2,000,000 tokens, $2,
1800 s of wall time);
"no budget" is an explicit choice (--none). An agent may have a budget of its own as well; a wake
needs room under every budget that applies. Tokens count input + output + cache read + cache write.
A model call is reserved first (its estimated input and maximum output, at the model's price):
with no room left it is not sent, and the run ends failed with stopReason "budget" (a model- or
run cap: "run_cap", the error naming which). Claude Code and Codex call the model themselves: their
calls are checked as each is answered, and the harness is stopped at the first limit reached. Calls whose model has no known price cost "unknown" (never $0): they
count against token limits, and a USD-only budget then warns that it cannot be trusted.

show   the budget, its period, what it has used (tokens, USD of priced calls, unpriced calls) and
       its state: ok | warning (at --warn-at, or unpriced usage under a USD limit) | exhausted | none
set    changes the fields given; the others keep their value
price  the company's own price of a model, USD per million tokens (negotiated, or a local model's):
       it wins over the registry's from --since (default today); a model with no price costs
       "unknown", never $0. Calls are priced at the model the provider says served them.

Options:
  --company ID         the company (default: the only company in the data directory)
  --agent ID           an agent's own budget (its company is found from it); its id or its name
  --usd X              USD limit per period (--usd none removes it)
  --tokens N           token limit per period (--tokens none removes it)
  --none               explicitly no budget: both limits removed
  --period P           month (calendar month, UTC) | total
  --warn-at F          warn at this fraction of a limit (default 0.8)
  --run-model-calls N, --run-tool-calls N, --run-tokens N, --run-usd X, --run-wall-seconds N
                       the company's caps on every run (N or none)
  --model ID, --input X, --output Y, --cache-read X, --cache-write X, --since DATE
                       (price) the model id and its USD per million input (uncached), output,
                       cache-read and cache-write tokens (cache prices default to 0)
  --json               one JSON line: { budget, agents, runCaps, prices }
  --data DIR           data directory (default ./.cadre)
${DATABASE_HELP}
${SERVER_HELP}`;

const OPTIONS = {
  ...STORE_OPTIONS,
  company: { type: "string" },
  agent: { type: "string" },
  usd: { type: "string" },
  tokens: { type: "string" },
  none: { type: "boolean" },
  period: { type: "string" },
  "warn-at": { type: "string" },
  "run-model-calls": { type: "string" },
  "run-tool-calls": { type: "string" },
  "run-tokens": { type: "string" },
  "run-usd": { type: "string" },
  "run-wall-seconds": { type: "string" },
  model: { type: "string" },
  input: { type: "string" },
  output: { type: "string" },
  "cache-read": { type: "string" },
  "cache-write": { type: "string" },
  since: { type: "string" },
} as const;

const PRICE_FLAGS = ["model", "input", "output", "cache-read", "cache-write", "since"] as const;

function perMillion(flag: string, raw: string | undefined, fallback?: number): number {
  if (raw === undefined) {
    if (fallback !== undefined) return fallback;
    throw new UsageError(`budgets price: --${flag} is required (USD per million tokens, e.g. 3 or 0.15)`);
  }
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < 0)
    throw new UsageError(
      `budgets price: --${flag} must be USD per million tokens, a number >= 0 such as 3 or 0.15 (got "${raw}")`,
    );
  return value;
}

function number(flag: string, raw: string | undefined, integer: boolean): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === "none") return null;
  const value = Number(raw);
  if (raw.trim() === "" || !Number.isFinite(value) || value < 0 || (integer && !Number.isInteger(value)))
    throw new UsageError(
      `budgets: --${flag} must be ${integer ? "a whole number of tokens or calls" : "an amount in USD, e.g. 20 or 0.5"}, or "none" (got "${raw}")`,
    );
  return value;
}

export async function budgetsCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return (io.out(`${BUDGETS_HELP}\n`), sub ? 0 : 2);
  if (sub !== "show" && sub !== "set" && sub !== "price")
    throw new UsageError(`budgets: unknown subcommand "${sub}" (show | set | price)`);
  const { values } = parse(`budgets ${sub}`, rest, OPTIONS);
  if (values.help) return (io.out(`${BUDGETS_HELP}\n`), 0);
  const input: Record<string, unknown> = {};
  const given = (flags: readonly string[]) =>
    flags.filter((f) => (values as Record<string, unknown>)[f] !== undefined);
  if (sub !== "price" && given(PRICE_FLAGS).length > 0)
    throw new UsageError(`budgets ${sub}: --${given(PRICE_FLAGS)[0]} belongs to \`cadre budgets price\``);
  if (sub === "price") {
    const other = Object.keys(values).filter(
      (k) => !["data", "database", "json", "company", ...PRICE_FLAGS].includes(k),
    );
    if (other.length > 0)
      throw new UsageError(
        `budgets price: takes --company, --model, --input, --output, --cache-read, --cache-write, --since, --data, --database, --json (not --${other[0]})`,
      );
    if (values.model === undefined)
      throw new UsageError("budgets price: --model is required (an explicit model id)");
    input["price"] = {
      model: values.model,
      since: values.since ?? new Date().toISOString().slice(0, 10),
      input: perMillion("input", values.input),
      output: perMillion("output", values.output),
      cacheRead: perMillion("cache-read", values["cache-read"], 0),
      cacheWrite: perMillion("cache-write", values["cache-write"], 0),
    };
  } else if (sub === "set") {
    const put = (key: string, v: unknown) => v !== undefined && (input[key] = v);
    put("usd", number("usd", values.usd, false));
    put("tokens", number("tokens", values.tokens, true));
    if (values.none) input["none"] = true;
    put("period", values.period);
    put("warnAt", number("warn-at", values["warn-at"], false) ?? undefined);
    put("runModelCalls", number("run-model-calls", values["run-model-calls"], true));
    put("runToolCalls", number("run-tool-calls", values["run-tool-calls"], true));
    put("runTokens", number("run-tokens", values["run-tokens"], true));
    put("runUsd", number("run-usd", values["run-usd"], false));
    put("runWallSeconds", number("run-wall-seconds", values["run-wall-seconds"], true));
  } else if (Object.keys(values).some((k) => !["data", "database", "json", "company", "agent"].includes(k))) {
    throw new UsageError("budgets show: takes only --company, --agent, --data, --database, --json");
  }
  const target: { companyId?: string; agentId?: string } = {
    ...(values.company !== undefined ? { companyId: values.company } : {}),
    ...(values.agent !== undefined ? { agentId: values.agent } : {}),
  };
  const report = await withOperator(
    values,
    io,
    server,
    async (port) => {
      if (target.agentId !== undefined)
        target.agentId = await agentIdOf(port, target.agentId, target.companyId);
      return sub === "show" ? port.budget(target) : port.setBudget(target, input as SetBudgetInput);
    },
    sub === "show" ? "read" : "write",
  );
  io.out(values.json ? `${JSON.stringify(report)}\n` : budgetText(report));
  return 0;
}
