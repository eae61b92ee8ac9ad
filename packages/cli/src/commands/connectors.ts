// `cadre connectors list|add|test|remove`: a thin layer over the company's connector operations
// (company/connectors/connector-admin.ts) — the flags become the API's own body, the output is the
// API's own view — so the CLI refuses exactly what POST /api/companies/{id}/connectors refuses.
import type { AddConnectorInput } from "@cadre/company";
import { CONNECTOR_KINDS, connectorBody } from "@cadre/model";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { connectorLines } from "../connector-format.js";
import { type CliIO, UsageError } from "../io.js";
import { withOperator } from "../operator/open.js";

export const CONNECTORS_HELP = `Usage:
  cadre connectors list   [--company ID] [--json]
  cadre connectors add    ID --kind KIND [--base-url URL] [--models ID[,ID…]] [--context-window N]
                          [--api-key-env VAR] [--executable PATH] [--config JSON] [--company ID] [--json]
  cadre connectors test   ID [--model M] [--company ID] [--json]
  cadre connectors remove ID [--company ID] [--json]

list    each connector with its readiness: credentials, executable, and whether its endpoint
        answered — when it was last checked and what failed (the checks run now)
add     a connector (kinds: ${CONNECTOR_KINDS.join(", ")}). Secrets are never stored: name the
        environment variable that holds the key (--api-key-env); anything in --config that looks
        like a credential is refused. A local model is declared with its context window:
          cadre connectors add local --kind openai-compatible --base-url http://127.0.0.1:11434/v1 \\
            --models qwen2.5:14b-instruct-q4_K_M --context-window 32768
        Floating tags (latest, a bare family name such as llama3) are refused.
test    one minimal real request (a model call of a few tokens; a harness's --version):
        ok, the model, the latency, and what failed. Exit 1 when it failed. Never prints a secret.
remove  the connector; refused while an active agent runs on it (move it first with
        cadre agents set-model AGENT MODEL --connector ID) and for the built-in offline connector

Options:
  --kind KIND           harness and provider (required by add)
  --base-url URL        the endpoint: an OpenAI-compatible server's /v1 URL, a Codex model
                        provider's base_url, or a gateway in front of the Anthropic / OpenAI API
  --models ID[,ID…]     the models agents may use on it (default: the kind's defaults)
  --context-window N    declares each of --models with this window (tokens): config.models
  --api-key-env VAR     the environment variable holding the key (config.apiKeyEnv)
  --executable PATH     claude-code / codex: the executable to start (config.executablePath)
  --config JSON         more configuration, e.g. '{"compactThreshold":0.8}' (the flags win nothing:
                        a key given both ways must agree)
  --model M             test: the model to ask (default: its first enabled one)
  --company ID          the company (default: the only one in the data dir)
  --json                one JSON line (list: the API's connector views; test: { ok, model, latencyMs, error? })
  --data DIR            data directory (default ./.cadre)
${DATABASE_HELP}
${SERVER_HELP}`;

const OPTIONS = { ...STORE_OPTIONS, company: { type: "string" } } as const;

export async function connectorsCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return (io.out(`${CONNECTORS_HELP}\n`), sub ? 0 : 2);
  switch (sub) {
    case "list":
      return list(rest, io, server);
    case "add":
      return add(rest, io, server);
    case "test":
      return test(rest, io, server);
    case "remove":
      return remove(rest, io, server);
    default:
      throw new UsageError(`connectors: unknown subcommand "${sub}"; use list, add, test or remove`);
  }
}

async function list(args: string[], io: CliIO, server: ServerTarget | undefined): Promise<number> {
  const { values } = parse("connectors list", args, OPTIONS);
  if (values.help) return (io.out(`${CONNECTORS_HELP}\n`), 0);
  // Read-only: the probes' outcomes are kept in this process, never in the store.
  const views = await withOperator(values, io, server, (port) => port.listConnectors(values.company), "read");
  if (values.json) return (io.out(`${JSON.stringify(views)}\n`), 0);
  for (const v of views) io.out(connectorLines(v));
  return 0;
}

const ADD_OPTIONS = {
  ...OPTIONS,
  kind: { type: "string" },
  "base-url": { type: "string" },
  models: { type: "string" },
  "context-window": { type: "string" },
  "api-key-env": { type: "string" },
  executable: { type: "string" },
  config: { type: "string" },
} as const;

export interface AddFlags {
  kind?: string | undefined;
  "base-url"?: string | undefined;
  models?: string | undefined;
  "context-window"?: string | undefined;
  "api-key-env"?: string | undefined;
  executable?: string | undefined;
  config?: string | undefined;
}

/** The API's POST body from the flags (the dashboard's form maps its fields the same way). */
export function addInputFromFlags(id: string, flags: AddFlags): AddConnectorInput {
  const result = connectorBody({
    id,
    kind: flags.kind,
    baseUrl: flags["base-url"],
    models: flags.models,
    contextWindow: flags["context-window"],
    apiKeyEnv: flags["api-key-env"],
    executable: flags.executable,
    config: flags.config,
  });
  if (!result.ok)
    throw new UsageError(
      `connectors add: ${result.message}${result.field === "kind" ? `; one of ${CONNECTOR_KINDS.join(", ")}` : ""}`,
    );
  // The company layer checks the body against addConnectorSchema, as the API does.
  return result.body as AddConnectorInput;
}

async function add(args: string[], io: CliIO, server: ServerTarget | undefined): Promise<number> {
  const { values, positionals } = parse("connectors add", args, ADD_OPTIONS, 1);
  if (values.help) return (io.out(`${CONNECTORS_HELP}\n`), 0);
  const [id] = positionals;
  if (!id)
    throw new UsageError("connectors add: ID is required (e.g. `cadre connectors add local --kind …`)");
  const input = addInputFromFlags(id, values);
  const { company, connector } = await withOperator(values, io, server, (port) =>
    port.addConnector(values.company, input),
  );
  if (values.json) return (io.out(`${JSON.stringify(connector)}\n`), 0);
  io.out(
    `added connector ${connector.id} to ${company.name} (${company.id})\n${connectorLines(connector, "  ")}`,
  );
  return 0;
}

async function test(args: string[], io: CliIO, server: ServerTarget | undefined): Promise<number> {
  const { values, positionals } = parse(
    "connectors test",
    args,
    { ...OPTIONS, model: { type: "string" } },
    1,
  );
  if (values.help) return (io.out(`${CONNECTORS_HELP}\n`), 0);
  const [id] = positionals;
  if (!id) throw new UsageError("connectors test: ID is required (see `cadre connectors list`)");
  const result = await withOperator(values, io, server, (port) =>
    port.testConnector(values.company, id, values.model),
  );
  if (values.json) io.out(`${JSON.stringify(result)}\n`);
  else if (result.ok)
    io.out(
      `ok — ${result.connectorId} answered ${result.model} in ${result.latencyMs} ms (${result.target})${result.answer ? `: "${result.answer}"` : ""}\n`,
    );
  else
    io.out(
      `FAILED — ${result.connectorId} (${result.model}), after ${result.latencyMs} ms: ${result.error}\n`,
    );
  return result.ok ? 0 : 1;
}

async function remove(args: string[], io: CliIO, server: ServerTarget | undefined): Promise<number> {
  const { values, positionals } = parse("connectors remove", args, OPTIONS, 1);
  if (values.help) return (io.out(`${CONNECTORS_HELP}\n`), 0);
  const [id] = positionals;
  if (!id) throw new UsageError("connectors remove: ID is required (see `cadre connectors list`)");
  const { company, connector } = await withOperator(values, io, server, (port) =>
    port.removeConnector(values.company, id),
  );
  io.out(
    values.json
      ? `${JSON.stringify(connector)}\n`
      : `removed connector ${connector.id} (${connector.kind}) from ${company.name}\n`,
  );
  return 0;
}
