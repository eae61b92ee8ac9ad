// 010: the operating company. Tasks (with their blockers and comments), the wake
// requests that work decided in code leaves for an agent (OP-1), and agents' schedules (OP-2). A
// task's checkout (`checkout_run_id`) is the one run working it; a wake request is pending until a
// wake of its agent takes it; a schedule's `next_due_at` is what ticks are taken on, by one process.
import type { Kysely, Migration } from "kysely";

export function tasksMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("tasks")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("title", "text", (c) => c.notNull())
        .addColumn("description", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("assignee_agent_id", "text", (c) => c.references("agents.id"))
        .addColumn("creator_agent_id", "text", (c) => c.references("agents.id"))
        .addColumn("parent_task_id", "text", (c) => c.references("tasks.id"))
        .addColumn("strategy_id", "text", (c) => c.references("approvals.id"))
        .addColumn("deliverable", "text")
        .addColumn("checkout_run_id", "text", (c) => c.references("runs.id"))
        .addColumn("via", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("tasks_company_created")
        .on("tasks")
        .columns(["company_id", "created_at", "id"])
        .execute();
      await db.schema
        .createIndex("tasks_assignee")
        .on("tasks")
        .columns(["assignee_agent_id", "status"])
        .execute();
      await db.schema.createIndex("tasks_checkout").on("tasks").column("checkout_run_id").execute();

      await db.schema
        .createTable("task_blockers")
        .addColumn("task_id", "text", (c) => c.notNull().references("tasks.id"))
        .addColumn("blocker_task_id", "text", (c) => c.notNull().references("tasks.id"))
        .addColumn("position", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("task_blockers_pk", ["task_id", "blocker_task_id"])
        .execute();
      await db.schema
        .createIndex("task_blockers_blocker")
        .on("task_blockers")
        .column("blocker_task_id")
        .execute();

      await db.schema
        .createTable("task_comments")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("task_id", "text", (c) => c.notNull().references("tasks.id"))
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("author_agent_id", "text", (c) => c.references("agents.id"))
        .addColumn("body", "text", (c) => c.notNull())
        .addColumn("run_id", "text", (c) => c.references("runs.id"))
        .addColumn("via", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("task_comments_task")
        .on("task_comments")
        .columns(["task_id", "created_at", "id"])
        .execute();

      await db.schema
        .createTable("wake_requests")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("agent_id", "text", (c) => c.notNull().references("agents.id"))
        .addColumn("trigger", "text", (c) => c.notNull())
        .addColumn("task_id", "text", (c) => c.references("tasks.id"))
        .addColumn("caused_by", "text", (c) => c.notNull())
        .addColumn("cause", "text", (c) => c.notNull())
        .addColumn("status", "text", (c) => c.notNull())
        .addColumn("run_id", "text", (c) => c.references("runs.id"))
        .addColumn("note", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("wake_requests_agent")
        .on("wake_requests")
        .columns(["agent_id", "status", "created_at", "id"])
        .execute();
      await db.schema
        .createIndex("wake_requests_status")
        .on("wake_requests")
        .columns(["status", "created_at", "id"])
        .execute();

      await db.schema
        .createTable("schedules")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("agent_id", "text", (c) => c.notNull().unique().references("agents.id"))
        .addColumn("every_seconds", "integer")
        .addColumn("cron", "text")
        .addColumn("timezone", "text", (c) => c.notNull())
        .addColumn("catch_up", "text", (c) => c.notNull())
        .addColumn("next_due_at", "text", (c) => c.notNull())
        .addColumn("last_tick_at", "text")
        .addColumn("created_at", "text", (c) => c.notNull())
        .addColumn("updated_at", "text", (c) => c.notNull())
        .execute();
      await db.schema.createIndex("schedules_due").on("schedules").columns(["next_due_at", "id"]).execute();
    },
  };
}
