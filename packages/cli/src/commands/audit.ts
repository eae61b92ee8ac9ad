// `cadre audit`: who did what — every audited write (operators by name, agents, the system), with
// what changed and the request that made it. Locally or through a running API.
import { UserInputError } from "@cadre/core";
import type { AuditRow } from "@cadre/store";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import { callApi } from "../client/api.js";
import type { ServerTarget } from "../client/server-option.js";
import { openData } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const AUDIT_HELP = `Usage:
  cadre audit [--company ID] [--actor NAME] [--since TIME] [--limit N] [--json | --jsonl]

The audit log, oldest first: one row per write by anyone — an operator by name, an agent, or the
system — with what it acted on, what changed (before → after) and the request that made it. It is
append-only and written in the same transaction as the write it records.
  --company ID   one company's rows (through --server, an operator limited to some companies needs it)
  --actor NAME   an operator's name, an agent's id or name, or "system"
  --since TIME   rows at or after an ISO time (2026-12-01T09:00:00Z) or a duration back (1h, 2d)
  --limit N      at most N rows (default 1000)
  --json         one JSON array; --jsonl one JSON object a line (for export)
${DATABASE_HELP}
${SERVER_HELP}`;

const DURATION = /^(\d+)(m|h|d)$/;

function sinceOf(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const d = DURATION.exec(value);
  if (d) {
    const ms = Number(d[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[d[2] as "m" | "h" | "d"];
    return new Date(Date.now() - ms).toISOString();
  }
  if (Number.isNaN(Date.parse(value)))
    throw new UserInputError(`--since must be an ISO time or a duration such as 1h or 2d (got "${value}")`, {
      since: "an ISO time, or N followed by m, h or d",
    });
  return new Date(value).toISOString();
}

export function auditText(rows: readonly AuditRow[]): string {
  if (rows.length === 0) return "no audited writes match\n";
  return rows
    .map(
      (r) =>
        `${r.at}  ${r.actorType === "agent" ? `agent ${r.actorName}` : r.actorName}  ${r.action}  ${r.target}: ${r.summary}${r.requestId ? `  [${r.requestId}]` : ""}`,
    )
    .join("\n")
    .concat("\n");
}

export async function auditCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const options = {
    ...STORE_OPTIONS,
    jsonl: { type: "boolean" },
    company: { type: "string" },
    actor: { type: "string" },
    since: { type: "string" },
    limit: { type: "string" },
  } as const;
  const { values } = parse("audit", args, options, 0);
  if (values.help) return (io.out(`${AUDIT_HELP}\n`), 0);
  if (values.limit !== undefined && !/^[1-9]\d{0,5}$/.test(values.limit))
    throw new UserInputError(`--limit must be a whole number from 1 to 999999 (got "${values.limit}")`, {
      limit: "a positive whole number",
    });
  const limit = values.limit === undefined ? 1000 : Number(values.limit);
  const since = sinceOf(values.since);
  let rows: AuditRow[];
  if (server) {
    if (values.data !== undefined || values.database !== undefined)
      throw new UsageError(
        "--data and --database have no meaning with --server (the server keeps its own data)",
      );
    rows = [];
    let after: string | undefined;
    const query = {
      ...(values.actor !== undefined ? { actor: values.actor } : {}),
      ...(since !== undefined ? { since } : {}),
    };
    do {
      const page = values.company
        ? await callApi(server, "GET /api/companies/{id}/audit", {
            params: { id: values.company },
            query: {
              ...query,
              limit: String(Math.min(500, limit - rows.length)),
              ...(after ? { after } : {}),
            },
          })
        : await callApi(server, "GET /api/audit", {
            query: {
              ...query,
              limit: String(Math.min(500, limit - rows.length)),
              ...(after ? { after } : {}),
            },
          });
      rows.push(...page.items);
      after = page.nextCursor ?? undefined;
    } while (after !== undefined && rows.length < limit);
  } else {
    const { store } = await openData(values, io.env, "read");
    try {
      rows = await store.listAudit({
        ...(values.company !== undefined ? { companyId: values.company } : {}),
        ...(values.actor !== undefined ? { actor: values.actor } : {}),
        ...(since !== undefined ? { since } : {}),
        limit,
      });
    } finally {
      await store.close();
    }
  }
  if (values.jsonl) io.out(rows.map((r) => `${JSON.stringify(r)}\n`).join(""));
  else if (values.json) io.out(`${JSON.stringify(rows)}\n`);
  else io.out(auditText(rows));
  return 0;
}
