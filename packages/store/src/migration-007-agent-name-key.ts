// 006: agent names unique per company on a normalised key. "CTO", "cto", "C\u200bTO"
// and "ＣＴＯ" read as one name; the company layer refuses such a hire with a readable reason, and
// this index makes the store refuse it too, whatever path or race got past the check. Terminated
// agents leave the index, so their names can be given again. Existing rows are keyed here (NFKC and
// case folding are not SQL in either dialect); where an old store already holds active look-alikes,
// the later ones keep their rows and get a key of their own, so the migration never fails on them.
import { sql, type Kysely, type Migration } from "kysely";
import { agentNameKey } from "./name-key.js";

export function agentNameKeyMigration(): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("agents")
        .addColumn("name_key", "text", (c) => c.notNull().defaultTo(""))
        .execute();
      const agents = (await db
        .selectFrom("agents")
        .select(["id", "company_id", "name", "status"])
        .orderBy("company_id")
        .orderBy("created_at")
        .orderBy("id")
        .execute()) as Array<{ id: string; company_id: string; name: string; status: string }>;
      const taken = new Set<string>();
      for (const a of agents) {
        let key = agentNameKey(a.name);
        if (a.status === "active") {
          if (taken.has(`${a.company_id}\n${key}`)) key = `${key}:duplicate:${a.id}`;
          taken.add(`${a.company_id}\n${key}`);
        }
        await db.updateTable("agents").set({ name_key: key }).where("id", "=", a.id).execute();
      }
      await db.schema
        .createIndex("agents_active_name_key")
        .on("agents")
        .columns(["company_id", "name_key"])
        .unique()
        .where(sql.ref("status"), "=", "active")
        .execute();
    },
  };
}
