// `cadre budgets show|set`: a company's or an agent's budget and what it has used (issue 16 #4).
// An operator port operation (local store or --server): @cadre/company's setBudget / budgetReport
// locally, GET/PUT /api/companies/{id}/budget and /api/agents/{id}/budget over HTTP (same schema).
import type { SetBudgetInput } from "@cadre/company";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError } from "../io.js";
import { withOperator } from "../operator/open.js";
import { budgetText } from "../operator/render/budgets.js";

export const BUDGETS_HELP = `Usage: cadre budgets show [--company ID] [--agent ID] [--data DIR] [--database URL] [--json]
       cadre budgets set [--company ID] [--agent ID] (--usd X | --tokens N | --none) [--period month|total]
                         [--warn-at F] [--run-model-calls N] [--run-tool-calls N] [--run-tokens N]
                         [--run-usd X] [--data DIR] [--database URL] [--json]

Spend control, enforced in code before every model call (fail closed). A company starts with a
monthly budget of $10 and per-run caps (100 model calls, 200 tool calls, 2,000,000 tokens, $2);
"no budget" is an explicit choice (--none). An agent may have a budget of its own as well; a wake
needs room under every budget that applies. Tokens count input + output + cache read + cache write.
A model call is reserved first (its estimated input and maximum output, at the model's price):
with no room left it is not sent, and the run ends failed with stopReason "budget" (a model- or
tool-call cap: "run_cap"). Calls whose model has no known price cost "unknown" (never $0): they
count against token limits, and a USD-only budget then warns that it cannot be trusted.

show   the budget, its period, what it has used (tokens, USD of priced calls, unpriced calls) and
       its state: ok | warning (at --warn-at, or unpriced usage under a USD limit) | exhausted | none
set    changes the fields given; the others keep their value

Options:
  --company ID         the company (default: the only company in the data directory)
  --agent ID           an agent's own budget (its company is found from it)
  --usd X              USD limit per period (--usd none removes it)
  --tokens N           token limit per period (--tokens none removes it)
  --none               explicitly no budget: both limits removed
  --period P           month (calendar month, UTC) | total
  --warn-at F          warn at this fraction of a limit (default 0.8)
  --run-model-calls N, --run-tool-calls N, --run-tokens N, --run-usd X
                       the company's caps on every run (N or none)
  --json               one JSON line: { budget, agents, runCaps }
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
} as const;

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
  if (sub !== "show" && sub !== "set")
    throw new UsageError(`budgets: unknown subcommand "${sub}" (show | set)`);
  const { values } = parse(`budgets ${sub}`, rest, OPTIONS);
  if (values.help) return (io.out(`${BUDGETS_HELP}\n`), 0);
  const input: Record<string, unknown> = {};
  if (sub === "set") {
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
  } else if (Object.keys(values).some((k) => !["data", "database", "json", "company", "agent"].includes(k))) {
    throw new UsageError("budgets show: takes only --company, --agent, --data, --database, --json");
  }
  const target = {
    ...(values.company !== undefined ? { companyId: values.company } : {}),
    ...(values.agent !== undefined ? { agentId: values.agent } : {}),
  };
  const report = await withOperator(
    values,
    io,
    server,
    (port) => (sub === "set" ? port.setBudget(target, input as SetBudgetInput) : port.budget(target)),
    sub === "set" ? "write" : "read",
  );
  io.out(values.json ? `${JSON.stringify(report)}\n` : budgetText(report));
  return 0;
}
