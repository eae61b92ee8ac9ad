// 023: files handed in with a task, kept in the database (both dialects) so a later
// edit of the file in the agent's workspace cannot change what was handed in.
//   file_contents  one row per distinct content, keyed by its SHA-256 (hex); the bytes as base64
//                  text, so the same column works on SQLite and PostgreSQL. Never updated.
//   task_files     what was attached to which task: the workspace-relative name, the content's
//                  hash and size, a media type, who attached it and in which run. Never updated.
import type { Kysely, Migration } from "kysely";

export function taskFilesMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("file_contents")
        .addColumn("sha256", "text", (c) => c.primaryKey())
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("content", "text", (c) => c.notNull())
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createTable("task_files")
        .addColumn("id", "text", (c) => c.primaryKey())
        .addColumn("task_id", "text", (c) => c.notNull().references("tasks.id"))
        .addColumn("company_id", "text", (c) => c.notNull().references("companies.id"))
        .addColumn("name", "text", (c) => c.notNull())
        .addColumn("sha256", "text", (c) => c.notNull().references("file_contents.sha256"))
        .addColumn("size", "integer", (c) => c.notNull())
        .addColumn("media_type", "text", (c) => c.notNull())
        .addColumn("added_by", "text", (c) => c.notNull())
        .addColumn("run_id", "text", (c) => c.references("runs.id"))
        .addColumn("created_at", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("task_files_task")
        .on("task_files")
        .columns(["task_id", "created_at", "id"])
        .execute();
    },
  };
}
