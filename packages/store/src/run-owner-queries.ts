// The owner of a company's due-work loop (migration 017): one `cadre run` per company at a time.
// Each write is one conditional UPDATE of the company row, so of two processes claiming at once
// exactly one sees its condition hold — on SQLite and PostgreSQL alike.
import type { Kysely } from "kysely";
import type { Database } from "./schema.js";
import type { ProcessOwner, RunOwnerRow } from "./types.js";

/** The owner as stored: a canonical JSON text, compared for equality. */
export function ownerText(owner: ProcessOwner): string {
  return JSON.stringify({ host: owner.host, pid: owner.pid, started: owner.started });
}

export async function getRunOwner(db: Kysely<Database>, companyId: string): Promise<RunOwnerRow | null> {
  const row = await db
    .selectFrom("companies")
    .select(["run_owner", "run_owner_since", "run_owner_until"])
    .where("id", "=", companyId)
    .executeTakeFirst();
  if (!row?.run_owner) return null;
  return {
    owner: JSON.parse(row.run_owner) as ProcessOwner,
    since: row.run_owner_since ?? "",
    until: row.run_owner_until ?? "",
  };
}

export async function claimRunOwner(
  db: Kysely<Database>,
  companyId: string,
  owner: ProcessOwner,
  lease: { since: string; until: string },
  expected: RunOwnerRow | null,
): Promise<boolean> {
  let q = db
    .updateTable("companies")
    .set({ run_owner: ownerText(owner), run_owner_since: lease.since, run_owner_until: lease.until })
    .where("id", "=", companyId);
  q = expected
    ? q.where("run_owner", "=", ownerText(expected.owner)).where("run_owner_until", "=", expected.until)
    : q.where("run_owner", "is", null);
  const result = await q.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function renewRunOwner(
  db: Kysely<Database>,
  companyId: string,
  owner: ProcessOwner,
  until: string,
): Promise<boolean> {
  const result = await db
    .updateTable("companies")
    .set({ run_owner_until: until })
    .where("id", "=", companyId)
    .where("run_owner", "=", ownerText(owner))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function releaseRunOwner(
  db: Kysely<Database>,
  companyId: string,
  owner: ProcessOwner,
): Promise<void> {
  await db
    .updateTable("companies")
    .set({ run_owner: null, run_owner_since: null, run_owner_until: null })
    .where("id", "=", companyId)
    .where("run_owner", "=", ownerText(owner))
    .execute();
}
