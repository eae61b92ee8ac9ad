// A slice of a company's active team in one statement: at most `limit` agents (by creation time,
// then id) and how many match — the whole team, or those reporting to one agent. What a bounded
// directory reads (an agent's peers, its reports, the first of the team), whatever the team's size.
import type { Kysely } from "kysely";
import type { DialectAdapter } from "./dialect.js";
import { bindNamed, named, run } from "./prepared.js";
import { toAgent } from "./rows.js";
import { AGENT, object, select } from "./snapshot.js";
import type { AgentRow } from "./types.js";

export interface TeamQuery {
  /** Only the active agents reporting to this agent; the whole active team when absent. */
  reportsTo?: string;
  /** An agent left out of both the rows and the count (the one asking, say). */
  exclude?: string;
  /** At most this many rows (the count is of every match). */
  limit: number;
}

export interface TeamSlice {
  /** By creation time, then id. */
  agents: AgentRow[];
  /** Every active agent the query matches, listed or not. */
  total: number;
}

// Two texts, not one with an "either" condition: each reads its own index (027) and stops at the
// limit. An absent `exclude` is "", which no id is.
const WHOLE = `company_id = $company and status = 'active' and id <> $exclude`;
const REPORTS = `company_id = $company and reports_to = $manager and status = 'active' and id <> $exclude`;

function teamText(match: string, pg: boolean): string {
  const rows = `from agents where ${match} order by created_at, id limit $limit`;
  const agents = pg
    ? `(select coalesce(json_agg(x order by x.created_at, x.id), '[]'::json)::text from (select ${select(AGENT)} ${rows}) x)`
    : `(select json_group_array(${object(AGENT)}) from (select * ${rows}))`;
  return `select ${agents} as agents, (select count(*) from agents where ${match}) as total`;
}

const TEAM = {
  sqlite: { whole: named(teamText(WHOLE, false)), reports: named(teamText(REPORTS, false)) },
  postgres: { whole: named(teamText(WHOLE, true)), reports: named(teamText(REPORTS, true)) },
};

export async function readTeam(
  db: Kysely<any>,
  adapter: DialectAdapter,
  companyId: string,
  query: TeamQuery,
): Promise<TeamSlice> {
  const statement = TEAM[adapter.name][query.reportsTo === undefined ? "whole" : "reports"];
  const rows = await run<{ agents: string; total: number | string }>(
    db,
    adapter,
    statement.text,
    bindNamed(statement, {
      company: companyId,
      manager: query.reportsTo ?? "",
      exclude: query.exclude ?? "",
      limit: query.limit,
    }),
  );
  const row = rows[0];
  return {
    agents: row ? (JSON.parse(row.agents) as never[]).map((r) => toAgent(r, adapter)) : [],
    total: row ? Number(row.total) : 0,
  };
}
