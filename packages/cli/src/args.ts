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

/** The command line's tokens that name one of `options`: --name, --name=…, and the short forms. */
function isOptionToken(arg: string, options: Options): boolean {
  if (arg.startsWith("--")) return (arg.slice(2).split("=")[0] ?? "") in options;
  return Object.values(options).some((o) => o.short !== undefined && arg === `-${o.short}`);
}

/**
 * A value that starts with "-" (`--note "-1 on this"`, `--seed -1`) is taken as the value of the
 * string option before it unless it is one of the command's own options, as a reader means it;
 * node:util's parseArgs would refuse it as ambiguous.
 */
function joinDashValues(args: string[], options: Options): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    const next = args[i + 1];
    const name = arg.startsWith("--") && !arg.includes("=") ? arg.slice(2) : undefined;
    if (
      name !== undefined &&
      options[name]?.type === "string" &&
      next !== undefined &&
      next.startsWith("-") &&
      next !== "--" &&
      !isOptionToken(next, options)
    ) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

/** parseArgs' refusal in our words: what was wrong and what to do (never Node's parser text). */
function parseProblem(command: string, error: Error & { code?: string }): string {
  const option = /Option '(--?[\w-]+)/.exec(error.message)?.[1] ?? /'(--?[\w-]+)'/.exec(error.message)?.[1];
  const help = `see cadre ${command.split(" ")[0]} --help`;
  if (error.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION")
    return `${command}: unknown option ${option ?? ""} (${help})`;
  if (/argument missing|ambiguous/.test(error.message))
    return `${command}: ${option} needs a value (a value starting with "-" can be written ${option}=-VALUE)`;
  if (/does not take an argument/.test(error.message))
    return `${command}: ${option} is a switch and takes no value (${help})`;
  return `${command}: ${error.message.replace(/\. To specify a positional.*$/s, "").replace(/\s*\n\s*/g, " ")}`;
}

export function parse<const O extends Options>(
  command: string,
  args: string[],
  options: O,
  maxPositionals = 0,
): Parsed<O> {
  let parsed: Parsed<O>;
  try {
    parsed = parseArgs<Config<O>>({
      args: joinDashValues(args, options),
      options,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError(parseProblem(command, error as Error & { code?: string }));
  }
  if (parsed.positionals.length > maxPositionals && !(parsed.values as Record<string, unknown>)["help"]) {
    throw new UsageError(`${command}: unexpected argument "${parsed.positionals[maxPositionals]}"`);
  }
  return parsed;
}
