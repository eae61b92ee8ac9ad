// `cadre models list|show`: the model registry (MC-6). `show` is also how a user checks an id before
// putting it in a connector: an alias is refused with the explicit ids it could mean.
import { resolve } from "node:path";
import { listModels, loadUserModels, type ModelInfo, resolveModel } from "@cadre/core";
import { isOneOf, MODEL_PROVIDERS } from "@cadre/model";
import { COMMON_OPTIONS, parse } from "../args.js";
import { DEFAULT_DATA_DIR } from "../context.js";
import { type CliIO, UsageError, subcommandRequired } from "../io.js";

export const MODELS_HELP = `Usage:
  cadre models list [--provider ${MODEL_PROVIDERS.join("|")}] [--data DIR] [--json]
  cadre models show ID [--data DIR] [--json]

Explicit model ids only: aliases such as "sonnet", "gpt-5" or "claude-sonnet-4-5" are
refused with the explicit ids they could mean. Prices are USD per million tokens. Models for an
OpenAI-compatible endpoint come from the "models" array of DIR/cadre.config.json or the
CADRE_MODELS environment variable (a JSON array), each { id, contextWindow, maxOutput, price? }.`;

function line(m: ModelInfo): string {
  const p = m.price;
  const price = p
    ? `$ in ${p.input} / out ${p.output} / cache read ${p.cacheRead} / cache write ${p.cacheWrite}`
    : "price unknown (cost shown as unknown)";
  return `${m.id.padEnd(28)} ${m.provider.padEnd(17)} window ${String(m.contextWindow).padStart(8)}  max out ${String(m.maxOutput).padStart(7)}  ${price}`;
}

export async function modelsCommand(args: string[], io: CliIO): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub) throw subcommandRequired("models", ["list", "show"]);
  if (sub === "--help" || sub === "-h") return (io.out(`${MODELS_HELP}\n`), 0);
  const { values, positionals } = parse(
    `models ${sub}`,
    rest,
    { ...COMMON_OPTIONS, provider: { type: "string" } },
    sub === "show" ? 1 : 0,
  );
  if (values.help) return (io.out(`${MODELS_HELP}\n`), 0);
  await loadUserModels({ dataDir: resolve(values.data ?? DEFAULT_DATA_DIR), env: io.env });
  if (sub === "list") {
    const provider = values.provider;
    if (provider !== undefined && !isOneOf(MODEL_PROVIDERS, provider))
      throw new UsageError(`models list: --provider must be one of ${MODEL_PROVIDERS.join(", ")}`);
    const models = listModels(provider);
    if (values.json) return (io.out(`${JSON.stringify({ models })}\n`), 0);
    for (const m of models) io.out(`${line(m)}\n`);
    return 0;
  }
  if (sub === "show") {
    const id = positionals[0];
    if (!id) throw new UsageError("models show: ID is required (see `cadre models list`)");
    const model = resolveModel(id);
    io.out(values.json ? `${JSON.stringify(model)}\n` : `${line(model)}\n`);
    return 0;
  }
  throw new UsageError(`models: unknown subcommand "${sub}"; use list or show`);
}
