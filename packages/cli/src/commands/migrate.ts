// `cadre migrate --from sqlite:PATH --to postgres://…`: moves an embedded installation to
// PostgreSQL. The copy and its verification live in the store; this parses, reports, sets exit codes.
import { existsSync, statSync } from "node:fs";
import { join } from "node:path";
import {
  type CopyReport,
  CopyMismatchError,
  copySqliteToPostgres,
  isPostgresUrl,
  redactUrl,
  sidesMatch,
  StoreError,
  TargetNotEmptyError,
} from "@cadre/store";
import { parse } from "../args.js";
import { type CliIO, UsageError } from "../io.js";

export const MIGRATE_HELP = `Usage: cadre migrate --from sqlite:PATH --to postgres://… [--schema NAME] [--replace] [--json]

Copies an embedded installation into PostgreSQL: every table, ids and timestamps kept, in one
transaction that commits only when every table's row count and checksum are the same on both
sides. Progress goes to stderr; the report (rows and checksum per table, both sides) to stdout (to
stderr with --json, whose one line is then all stdout holds).

  --from sqlite:PATH   the SQLite store: its file, or the data directory holding cadre.db
  --to URL             postgres://user:password@host:port/database
  --schema NAME        the schema to fill (default: the connection's, usually public)
  --replace            empty a target that already holds rows (default: refuse it)
  --json               end with one JSON line: { from, to, identical, tables: [{ table,
                       source: { rows, checksum }, target: { rows, checksum }, match }] }

Exit codes: 0 copied and identical; 1 the copy failed or differed (rolled back, target unchanged);
2 bad usage, a missing source, or a target that already holds rows.`;

const OPTIONS = {
  from: { type: "string" },
  to: { type: "string" },
  schema: { type: "string" },
  replace: { type: "boolean" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

function printReport(io: CliIO, report: CopyReport): void {
  io.out(
    `${"table".padEnd(16)} ${"rows (sqlite → postgres)".padEnd(26)} ${"checksum sqlite".padEnd(33)} ${"checksum postgres".padEnd(33)}\n`,
  );
  for (const t of report.tables) {
    const rows = `${t.source.rows} → ${t.target.rows}`;
    io.out(
      `${t.table.padEnd(16)} ${rows.padEnd(26)} ${t.source.checksum} ${t.target.checksum} ${sidesMatch(t) ? "ok" : "DIFFERENT"}\n`,
    );
  }
}

function jsonReport(report: CopyReport, to: string) {
  return {
    from: `sqlite:${report.sqlitePath}`,
    to: redactUrl(to),
    identical: report.tables.every(sidesMatch),
    tables: report.tables.map((t) => ({ ...t, match: sidesMatch(t) })),
  };
}

export async function migrateCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse("migrate", args, OPTIONS);
  if (values.help) return (io.out(`${MIGRATE_HELP}\n`), 0);
  if (!values.from?.startsWith("sqlite:") || values.from.length === "sqlite:".length) {
    throw new UsageError(
      "migrate: --from sqlite:PATH is required (the SQLite file or data directory to copy)",
    );
  }
  if (!values.to || !isPostgresUrl(values.to))
    throw new UsageError("migrate: --to postgres://… is required (the PostgreSQL database to fill)");
  const from = values.from.slice("sqlite:".length);
  const to = values.to;
  // Refused before the progress line starts: a bad --from is one line on stderr.
  const fromFile = existsSync(from) && statSync(from).isDirectory() ? join(from, "cadre.db") : from;
  if (!existsSync(fromFile)) throw new UsageError(`migrate: no SQLite store at ${from}`);
  io.err(`copying sqlite:${from} → ${redactUrl(to)}${values.schema ? ` (schema ${values.schema})` : ""}\n`);
  let report: CopyReport;
  try {
    report = await copySqliteToPostgres({
      from,
      to: { url: to, ...(values.schema ? { schema: values.schema } : {}) },
      replace: values.replace === true,
      onProgress: (message) => io.err(`  ${message}\n`),
    });
  } catch (error) {
    if (error instanceof TargetNotEmptyError) throw new UsageError(`migrate: ${error.message} (--replace)`);
    if (error instanceof CopyMismatchError) {
      printReport(io, error.report);
      if (values.json) io.out(`${JSON.stringify(jsonReport(error.report, to))}\n`);
      io.err(`cadre migrate: ${error.message}\n`);
      return 1;
    }
    if (error instanceof StoreError && /^(no SQLite store|cannot open)/.test(error.message))
      throw new UsageError(`migrate: ${error.message}`);
    throw error;
  }
  printReport(io, report);
  io.err(
    `copied ${report.tables.reduce((n, t) => n + t.target.rows, 0)} rows in ${report.tables.length} tables; every count and checksum matches\n`,
  );
  if (values.json) io.out(`${JSON.stringify(jsonReport(report, to))}\n`);
  return 0;
}
