// Schema migrations, listed in code (no directory scan) so that they ship inside the bundle.
// Column types stay dialect-neutral (text, integer, boolean); the adapter supplies the rest.
import { DEFAULT_MIGRATION_TABLE, Migrator, type Kysely, type Migration } from "kysely";
import type { DialectAdapter } from "./dialect.js";
import { apiTokensMigration } from "./migration-002-api-tokens.js";
import { companyFeedMigration } from "./migration-003-company-feed.js";
import { wakesMigration } from "./migration-004-wakes.js";
import { toolCallsMigration } from "./migration-005-tool-calls.js";
import { runLeasesMigration } from "./migration-006-run-leases.js";
import { agentNameKeyMigration } from "./migration-007-agent-name-key.js";
import { agentSessionsMigration } from "./migration-008-agent-sessions.js";
import { connectorRemovalMigration } from "./migration-009-connector-removal.js";
import { budgetsMigration } from "./migration-011-budgets.js";
import { tasksMigration } from "./migration-010-tasks.js";
import { wakeRequestReturnsMigration } from "./migration-013-wake-request-returns.js";
import { runOwnerAuthorshipMigration } from "./migration-017-run-owner-authorship.js";
import { peopleMigration } from "./migration-018-people.js";
import { spendTotalsMigration } from "./migration-021-spend-totals.js";
import { taskFilesMigration } from "./migration-023-task-files.js";
import { modelFingerprintsMigration } from "./migration-025-model-fingerprints.js";
import { agentsTeamIndexesMigration } from "./migration-027-agents-team-indexes.js";
import { StoreError } from "./errors.js";
import type { Database } from "./schema.js";

function initial(adapter: DialectAdapter): Migration {
  const json = adapter.jsonType;
  return {
    // Migrations see the schema as it was when they were written, not today's Database type.
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("companies")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("goal", "text", (c) => c.notNull())
        .addColumn("settings", json, (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("connectors")
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("id", "text", (c) => c.notNull())
        .addColumn("kind", "text", (c) => c.notNull())
        .addColumn("label", "text", (c) => c.notNull())
        .addColumn("enabled_models", json, (c) => c.notNull())
        .addColumn("config", json, (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addPrimaryKeyConstraint("connectors_pk", ["company_id", "id"])
        .execute();

      await db.schema
        .createTable("agents")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("role", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("department", "text")
        .addColumn("connector_id", "text", (c) => c.notNull())
        .addColumn("model", "text", (c) => c.notNull())
        .addColumn("reports_to", "text", (c) => c.references("agents.id"))
        .addColumn("is_ceo", "boolean", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("via", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        // An agent's connector belongs to the agent's own company.
        .addForeignKeyConstraint("agents_connector_fk", ["company_id", "connector_id"], "connectors", [
          "company_id",
          "id",
        ])
        .execute();
      await db.schema
        .createIndex("agents_company_created")
        .on("agents")
        .columns(["company_id", "created_at", "id"])
        .execute();

      await db.schema
        .createTable("approvals")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("payload", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("filed_by_agent_id", "text", (c) => c.references("agents.id"))
        .addColumn("via", "text", (c) => c.notNull())
        .addColumn("decision_note", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("decided_at", "text")
        .execute();
      await db.schema
        .createIndex("approvals_company_created")
        .on("approvals")
        .columns(["company_id", "created_at", "id"])
        .execute();

      await db.schema
        .createTable("approval_events")
        .addColumn("id", "integer", (c) => adapter.autoIncrement(c.primaryKey()))
        .addColumn("approval_id", "text", (c) => c.notNull().references("approvals.id"))
        .addColumn("from_status", "text")
        .addColumn("to_status", "text", (c) => c.notNull())
        .addColumn("note", "text")
        .addColumn("actor", "text", (c) => c.notNull())
        .addColumn("at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("approval_events_approval")
        .on("approval_events")
        .columns(["approval_id", "id"])
        .execute();

      await db.schema
        .createTable("runs")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("agent_id", "text", (c) => c.notNull().references("agents.id"))
        .addColumn("trigger", "text", (c) => c.notNull())
        .addColumn("mode", "text", (c) => c.notNull())
        .addColumn("profile", "text", (c) => c.notNull())
        .addColumn("cue", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        // Usage as plain columns rather than JSON, so that metering can sum it in SQL.
        .addColumn("input_tokens", "integer", (c) => c.notNull())
        .addColumn("output_tokens", "integer", (c) => c.notNull())
        .addColumn("cache_read_tokens", "integer", (c) => c.notNull())
        .addColumn("cache_write_tokens", "integer", (c) => c.notNull())
        .addColumn("error", "text")
        .addColumn("started_at", "text", (c) => c.notNull())
        .addColumn("ended_at", "text")
        .execute();
      await db.schema
        .createIndex("runs_company_started")
        .on("runs")
        .columns(["company_id", "started_at", "id"])
        .execute();
      await db.schema
        .createIndex("runs_agent_started")
        .on("runs")
        .columns(["agent_id", "started_at", "id"])
        .execute();

      await db.schema
        .createTable("run_events")
        .addColumn("id", "integer", (c) => adapter.autoIncrement(c.primaryKey()))
        .addColumn("run_id", "text", (c) => c.notNull().references("runs.id"))
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("seq", "integer", (c) => c.notNull())
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("data", json, (c) => c.notNull())
        .addColumn("at", "text", (c) => c.notNull())
        .addUniqueConstraint("run_events_run_seq", ["run_id", "seq"])
        .execute();
      await db.schema
        .createIndex("run_events_company")
        .on("run_events")
        .columns(["company_id", "id"])
        .execute();

      await db.schema
        .createTable("activity")
        .addColumn("id", "integer", (c) => adapter.autoIncrement(c.primaryKey()))
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("agent_id", "text", (c) => c.references("agents.id"))
        .addColumn("run_id", "text", (c) => c.references("runs.id"))
        .addColumn("type", "text", (c) => c.notNull())
        .addColumn("data", json, (c) => c.notNull())
        .addColumn("at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("activity_company").on("activity").columns(["company_id", "id"]).execute();
    },
  };
}

/** Every migration by name, in the order written; each factory closes over the dialect's adapter. */
const MIGRATIONS: ReadonlyArray<readonly [string, (adapter: DialectAdapter) => Migration]> = [
  ["001_initial", initial],
  ["002_api_tokens", () => apiTokensMigration()],
  ["003_company_feed", companyFeedMigration],
  ["004_wakes", () => wakesMigration()],
  ["005_tool_calls", toolCallsMigration],
  ["006_run_leases", () => runLeasesMigration()],
  ["007_agent_name_key", () => agentNameKeyMigration()],
  ["008_agent_sessions", agentSessionsMigration],
  ["009_connector_removal", () => connectorRemovalMigration()],
  ["010_tasks", () => tasksMigration()],
  ["011_budgets", budgetsMigration],
  ["013_wake_request_returns", () => wakeRequestReturnsMigration()],
  ["017_run_owner_authorship", () => runOwnerAuthorshipMigration()],
  ["018_people", peopleMigration],
  ["021_spend_totals", () => spendTotalsMigration()],
  ["023_task_files", () => taskFilesMigration()],
  ["025_model_fingerprints", modelFingerprintsMigration],
  ["027_agents_team_indexes", () => agentsTeamIndexesMigration()],
];

/** The names of every migration the store runs, sorted as the migration table lists them. */
export const MIGRATION_NAMES: readonly string[] = MIGRATIONS.map(([name]) => name).sort();

function migrator(db: Kysely<Database>, adapter: DialectAdapter): Migrator {
  const migrations: Record<string, Migration> = Object.fromEntries(
    MIGRATIONS.map(([name, make]) => [name, make(adapter)]),
  );
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    // Numbers are reserved per branch and merged in any order (009 may arrive after 010 ran), so a
    // store that ran a later-numbered migration still runs an earlier one it lacks, in name order.
    // Each migration touches only its own tables; none depends on a number it does not follow.
    allowUnorderedMigrations: true,
    // Named explicitly where the adapter knows it: Kysely would otherwise take a migration table in
    // any schema of the database for ours.
    ...(adapter.migrationSchema !== undefined ? { migrationTableSchema: adapter.migrationSchema } : {}),
  });
}

/**
 * How many migrations the database has not run yet (a read only: it writes nothing). Every open
 * asks, so it is one read of the migration table; Kysely's migrator, which first reads every
 * table's columns to find that table, answers only when the read fails (a new file has none).
 * Not for use inside a PostgreSQL transaction, which a failed statement would abort.
 */
export async function pendingMigrations(db: Kysely<Database>, adapter: DialectAdapter): Promise<number> {
  let ran: Set<string>;
  try {
    const schema = adapter.migrationSchema;
    const from = (schema !== undefined ? db.withSchema(schema) : db) as unknown as Kysely<MigrationTable>;
    const rows = await from.selectFrom(DEFAULT_MIGRATION_TABLE).select("name").execute();
    ran = new Set(rows.map((row) => row.name));
  } catch {
    const all = await migrator(db, adapter).getMigrations();
    return all.filter((m) => m.executedAt === undefined).length;
  }
  return MIGRATION_NAMES.filter((name) => !ran.has(name)).length;
}

/** The one column of Kysely's migration table read here. */
interface MigrationTable {
  kysely_migration: { name: string };
}

/** Brings the schema up to date; safe to run on every open. */
export async function migrate(db: Kysely<Database>, adapter: DialectAdapter): Promise<void> {
  const { error, results } = await migrator(db, adapter).migrateToLatest();
  if (error !== undefined) {
    const failed = results?.find((r) => r.status === "Error")?.migrationName ?? "(none)";
    const detail = error instanceof Error ? error.message : String(error);
    throw new StoreError(`migration ${failed} failed: ${detail}`, { cause: error });
  }
}
