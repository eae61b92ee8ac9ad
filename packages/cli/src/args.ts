// Argument parsing on node:util's parseArgs (strict: unknown flags are errors, not ignored).
import { parseArgs, type ParseArgsConfig } from "node:util";
import { UsageError } from "./io.js";

export type Options = NonNullable<ParseArgsConfig["options"]>;
type Config<O extends Options> = { args: string[]; options: O; allowPositionals: true; strict: true };
export type Parsed<O extends Options> = ReturnType<typeof parseArgs<Config<O>>>;

export const COMMON_OPTIONS = {
  data: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const satisfies Options;

/** The options of every command that opens the store (see openData for their precedence). */
export const STORE_OPTIONS = {
  ...COMMON_OPTIONS,
  database: { type: "string" },
} as const satisfies Options;

/** The --help line of --database, the same in every command that opens the store. */
export const DATABASE_HELP = `  --database URL   keep the store in PostgreSQL, shared with \`cadre serve\` and workers (default:
                   CADRE_DATABASE_URL; without either, the SQLite file in the data directory)`;

/** The --help lines of --server, the same in every command the operator port serves. */
export const SERVER_HELP = `  --server URL     do it through a running API (\`cadre serve\`) instead of the store; the token
                   from --token TOKEN or CADRE_TOKEN (the operator token, or an agent key)`;

export function parse<const O extends Options>(
  command: string,
  args: string[],
  options: O,
  maxPositionals = 0,
): Parsed<O> {
  let parsed: Parsed<O>;
  try {
    parsed = parseArgs<Config<O>>({ args, options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(
      `${command}: ${(error as Error).message.replace(/\. To specify a positional.*$/s, "")}`,
    );
  }
  if (parsed.positionals.length > maxPositionals && !(parsed.values as Record<string, unknown>)["help"]) {
    throw new UsageError(`${command}: unexpected argument "${parsed.positionals[maxPositionals]}"`);
  }
  return parsed;
}
