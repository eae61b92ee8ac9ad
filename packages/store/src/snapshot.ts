// A company's state in one statement: the company, its connectors (not the removed ones: the same
// filter as listConnectors), its active agents and its
// latest CEO strategy approval — what every company rule decides on (a hire, a filing, a decision,
// a wake). Each part is aggregated to JSON by the database and decoded with the usual row mappers,
// so one round trip (PostgreSQL) or one step (SQLite) replaces four.
import type { Kysely } from "kysely";
import { bindNamed, named, run } from "./prepared.js";
import type { DialectAdapter } from "./dialect.js";
import { agentNameKey } from "./name-key.js";
import { toAgent, toApproval, toCompany, toConnector } from "./rows.js";
import type { AgentRow, ApprovalRow, CompanyRow, ConnectorRow } from "./types.js";

export interface CompanySnapshot {
  company: CompanyRow;
  /** By creation time, then id. */
  connectors: ConnectorRow[];
  /** Active agents, by creation time, then id. */
  activeAgents: AgentRow[];
  /** The company's latest `approve_ceo_strategy` approval (by creation time, then id), if any. */
  latestStrategy: ApprovalRow | null;
}

const COMPANY = ["id", "name", "goal", "settings", "created_at"];
const CONNECTOR = [
  "company_id",
  "id",
  "kind",
  "label",
  "enabled_models",
  "config",
  "model_fingerprints",
  "created_at",
];
export const AGENT = [
  "id",
  "company_id",
  "name",
  "name_key",
  "role",
  "description",
  "department",
  "connector_id",
  "model",
  "reports_to",
  "is_ceo",
  "status",
  "via",
  "created_at",
];
const APPROVAL = [
  "id",
  "company_id",
  "type",
  "title",
  "payload",
  "status",
  "filed_by_agent_id",
  "via",
  "decision_note",
  "created_at",
  "decided_at",
];
/** JSON columns travel as their text, as the row mappers expect them from either dialect. */
const JSON_COLUMNS = new Set(["settings", "enabled_models", "config", "model_fingerprints"]);

// SQLite: json_object over the listed columns (a JSON column's text stays a string).
export const object = (columns: string[]) => `json_object(${columns.map((c) => `'${c}', ${c}`).join(", ")})`;
// PostgreSQL: row_to_json over a subquery that casts the json columns to text.
export const select = (columns: string[]) =>
  columns.map((c) => (JSON_COLUMNS.has(c) ? `${c}::text as ${c}` : c)).join(", ");

const SQLITE = {
  company: `(select ${object(COMPANY)} from companies where id = $1)`,
  connectors: `(select json_group_array(${object(CONNECTOR)}) from (select * from connectors where company_id = $1 and removed_at is null order by created_at, id))`,
  agents: `(select json_group_array(${object(AGENT)}) from (select * from agents where company_id = $1 and status = 'active' order by created_at, id))`,
  strategy: `(select ${object(APPROVAL)} from approvals where company_id = $1 and type = 'approve_ceo_strategy' order by created_at desc, id desc limit 1)`,
};

const POSTGRES = {
  company: `(select row_to_json(x)::text from (select ${select(COMPANY)} from companies where id = $1) x)`,
  connectors: `(select coalesce(json_agg(x order by x.created_at, x.id), '[]'::json)::text from (select ${select(CONNECTOR)} from connectors where company_id = $1 and removed_at is null) x)`,
  agents: `(select coalesce(json_agg(x order by x.created_at, x.id), '[]'::json)::text from (select ${select(AGENT)} from agents where company_id = $1 and status = 'active') x)`,
  strategy: `(select row_to_json(x)::text from (select ${select(APPROVAL)} from approvals where company_id = $1 and type = 'approve_ceo_strategy' order by created_at desc, id desc limit 1) x)`,
};

const SNAPSHOT = {
  sqlite: named(
    `select ${SQLITE.company} as company, ${SQLITE.connectors} as connectors, ${SQLITE.agents} as agents, ${SQLITE.strategy} as strategy`.replaceAll(
      "$1",
      "$company",
    ),
  ),
  postgres: named(
    `select ${POSTGRES.company} as company, ${POSTGRES.connectors} as connectors, ${POSTGRES.agents} as agents, ${POSTGRES.strategy} as strategy`.replaceAll(
      "$1",
      "$company",
    ),
  ),
};

interface SnapshotRow {
  company: string | null;
  connectors: string;
  agents: string;
  strategy: string | null;
}

export async function readSnapshot(
  db: Kysely<any>,
  adapter: DialectAdapter,
  companyId: string,
): Promise<CompanySnapshot | undefined> {
  const statement = SNAPSHOT[adapter.name];
  const rows = await run<SnapshotRow>(
    db,
    adapter,
    statement.text,
    bindNamed(statement, { company: companyId }),
  );
  return toSnapshot(rows[0], adapter);
}

function toSnapshot(row: SnapshotRow | undefined, adapter: DialectAdapter): CompanySnapshot | undefined {
  if (!row?.company) return undefined;
  const parse = (text: string) => JSON.parse(text) as never;
  return {
    company: toCompany(parse(row.company), adapter),
    connectors: (parse(row.connectors) as never[]).map((r) => toConnector(r, adapter)),
    activeAgents: (parse(row.agents) as never[]).map((r) => toAgent(r, adapter)),
    latestStrategy: row.strategy ? toApproval(parse(row.strategy)) : null,
  };
}

/**
 * What a check-then-write rule needs, in one statement, whatever the team's size: the company, its
 * connectors, CEO and latest strategy, the counts its CEO mode is computed from, and — when asked —
 * one agent by id and the active agent whose name key is taken. No agent list is read.
 */
export interface CompanySummary {
  company: CompanyRow;
  connectors: ConnectorRow[];
  /** The first active CEO (by creation time, then id); null when there is none. */
  ceo: AgentRow | null;
  /** Active agents of the company. */
  activeAgents: number;
  /** Active agents reporting to the CEO. */
  activeReports: number;
  latestStrategy: ApprovalRow | null;
  /** The agent asked for by id (any company, any status), if it exists. */
  agent: AgentRow | null;
  /** The earliest active agent whose name key is the one asked for (or a look-alike an old store kept). */
  nameTaken: AgentRow | null;
}

export interface SummaryQuery {
  agentId?: string | null;
  /** A name about to be given: the active agent holding its key is looked up. */
  name?: string;
}

interface SummaryRow {
  company: string | null;
  connectors: string;
  ceo: string | null;
  active_agents: number | string;
  active_reports: number | string;
  strategy: string | null;
  agent: string | null;
  taken: string | null;
}

// Look-alikes an old store already held keep `<key>:duplicate:<id>` (migration 007): a name is
// taken by the key itself or by any such variant, a range of the same index.
const TAKEN = `company_id = $company and status = 'active' and (name_key = $key or (name_key > $lo and name_key < $hi))`;
const CEO = `company_id = $company and status = 'active' and is_ceo = $yes`;

function summaryText(pg: boolean): string {
  const one = (columns: string[], from: string) =>
    pg
      ? `(select row_to_json(x)::text from (select ${select(columns)} from ${from}) x)`
      : `(select ${object(columns)} from ${from})`;
  const parts = pg ? POSTGRES : SQLITE;
  return `select ${parts.company.replaceAll("$1", "$company")} as company,
    ${parts.connectors.replaceAll("$1", "$company")} as connectors,
    ${one(AGENT, `agents where ${CEO} order by created_at, id limit 1`)} as ceo,
    (select count(*) from agents where company_id = $company and status = 'active') as active_agents,
    (select count(*) from agents where company_id = $company and status = 'active' and reports_to =
      (select id from agents where ${CEO} order by created_at, id limit 1)) as active_reports,
    ${parts.strategy.replaceAll("$1", "$company")} as strategy,
    ${one(AGENT, `agents where id = $agent`)} as agent,
    ${one(AGENT, `agents where ${TAKEN} order by created_at, id limit 1`)} as taken`;
}

const SUMMARY = { sqlite: named(summaryText(false)), postgres: named(summaryText(true)) };

export async function readSummary(
  db: Kysely<any>,
  adapter: DialectAdapter,
  companyId: string,
  query: SummaryQuery,
): Promise<CompanySummary | undefined> {
  // An absent key or id matches nothing: no key is empty, no id is.
  const key = query.name === undefined ? "" : agentNameKey(query.name);
  const statement = SUMMARY[adapter.name];
  const rows = await run<SummaryRow>(
    db,
    adapter,
    statement.text,
    bindNamed(statement, {
      company: companyId,
      yes: adapter.encodeBool(true),
      agent: query.agentId ?? "",
      key,
      lo: `${key}:duplicate:`,
      hi: `${key}:duplicate;`,
    }),
  );
  return toSummary(rows[0], adapter);
}

function toSummary(row: SummaryRow | undefined, adapter: DialectAdapter): CompanySummary | undefined {
  if (!row?.company) return undefined;
  const parse = (text: string) => JSON.parse(text) as never;
  const agent = (text: string | null) => (text ? toAgent(parse(text), adapter) : null);
  return {
    company: toCompany(parse(row.company), adapter),
    connectors: (parse(row.connectors) as never[]).map((r) => toConnector(r, adapter)),
    ceo: agent(row.ceo),
    activeAgents: Number(row.active_agents),
    activeReports: Number(row.active_reports),
    latestStrategy: row.strategy ? toApproval(parse(row.strategy)) : null,
    agent: agent(row.agent),
    nameTaken: agent(row.taken),
  };
}
