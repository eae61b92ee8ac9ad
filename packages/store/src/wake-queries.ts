// The wake lease (migration 004), written once against Kysely's builder. KyselyQueries wraps each
// function with its error mapping and, where it says so, a transaction.
import type { Kysely } from "kysely";
import { toWake } from "./rows.js";
import type { Database } from "./schema.js";
import type { WakeClaim, WakeClaimResult, WakeRow, WakeStatus } from "./types.js";

const now = (): string => new Date().toISOString();

function leaseOf(claim: WakeClaim, at: string) {
  return {
    status: "running" as const,
    worker_id: claim.workerId,
    lease_until: claim.leaseUntil,
    updated_at: at,
    owner_host: claim.owner?.host ?? null,
    owner_pid: claim.owner?.pid ?? null,
    owner_started: claim.owner?.started ?? null,
  };
}

function newWake(claim: WakeClaim, at: string) {
  return {
    id: claim.id,
    company_id: claim.companyId,
    agent_id: claim.agentId,
    run_id: null,
    attempts: 0,
    error: null,
    created_at: at,
    ...leaseOf(claim, at),
  };
}

/**
 * The common claim in one statement: a wake id not seen before, of an agent running no wake, is
 * inserted running. Either unique key in the way (the wake id: a redelivery; the agent's one
 * running wake) makes it insert nothing, and `claimWake` then reads what is there.
 */
export async function claimNewWake(db: Kysely<Database>, claim: WakeClaim): Promise<WakeRow | undefined> {
  const row = await db
    .insertInto("wakes")
    .values(newWake(claim, now()))
    .onConflict((oc) => oc.doNothing())
    .returningAll()
    .executeTakeFirst();
  return row && toWake(row);
}

/** Run inside one transaction (read committed is enough: see the writes). */
export async function claimWake(db: Kysely<Database>, claim: WakeClaim): Promise<WakeClaimResult> {
  const existing = await db.selectFrom("wakes").selectAll().where("id", "=", claim.id).executeTakeFirst();
  if (existing && (existing.status === "done" || existing.status === "failed"))
    return { outcome: "finished", wake: toWake(existing) };
  if (existing?.status === "running") return { outcome: "held", wake: toWake(existing) };
  const other = await db
    .selectFrom("wakes")
    .selectAll()
    .where("agent_id", "=", claim.agentId)
    .where("status", "=", "running")
    .executeTakeFirst();
  if (other) return { outcome: "busy", wake: toWake(other) };
  const at = now();
  // The writes decide, not the reads above (another claimer may be between them and us): the update
  // only takes a wake still handed back, and the unique keys refuse a second wake id or a second
  // running wake of the agent (a ConflictError, after which the caller reads again).
  const row = existing
    ? await db
        .updateTable("wakes")
        .set(leaseOf(claim, at))
        .where("id", "=", claim.id)
        .where("status", "=", "retrying")
        .returningAll()
        .executeTakeFirst()
    : await db.insertInto("wakes").values(newWake(claim, at)).returningAll().executeTakeFirstOrThrow();
  if (!row) return claimWake(db, claim);
  return { outcome: "claimed", wake: toWake(row) };
}

export async function getWake(db: Kysely<Database>, id: string): Promise<WakeRow | undefined> {
  const row = await db.selectFrom("wakes").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toWake(row);
}

/** What a wake no longer has once nobody holds it. */
const released = {
  worker_id: null,
  lease_until: null,
  owner_host: null,
  owner_pid: null,
  owner_started: null,
} as const;

/** The condition of every holder's write: still running, still under this worker's lease. */
function held(db: Kysely<Database>, id: string, workerId: string) {
  return db
    .updateTable("wakes")
    .where("id", "=", id)
    .where("worker_id", "=", workerId)
    .where("status", "=", "running");
}

export async function renewWake(
  db: Kysely<Database>,
  id: string,
  workerId: string,
  leaseUntil: string,
): Promise<boolean> {
  const result = await held(db, id, workerId)
    .set({ lease_until: leaseUntil, updated_at: now() })
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function setWakeRun(
  db: Kysely<Database>,
  id: string,
  workerId: string,
  runId: string,
): Promise<boolean> {
  const result = await held(db, id, workerId)
    .set((eb) => ({ run_id: runId, attempts: eb("attempts", "+", 1), updated_at: now() }))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function releaseWake(
  db: Kysely<Database>,
  id: string,
  workerId: string,
  end: { status: Exclude<WakeStatus, "running">; error: string | null },
): Promise<boolean> {
  const result = await held(db, id, workerId)
    .set({ status: end.status, error: end.error, ...released, updated_at: now() })
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function listExpiredWakes(db: Kysely<Database>, before: string): Promise<WakeRow[]> {
  const rows = await db
    .selectFrom("wakes")
    .selectAll()
    .where("status", "=", "running")
    .where("lease_until", "<", before)
    .orderBy("lease_until")
    .orderBy("id")
    .execute();
  return rows.map(toWake);
}

export async function listRunningWakes(db: Kysely<Database>): Promise<WakeRow[]> {
  const rows = await db
    .selectFrom("wakes")
    .selectAll()
    .where("status", "=", "running")
    .orderBy("lease_until")
    .orderBy("id")
    .execute();
  return rows.map(toWake);
}

/** A lost holder's wake fails, or goes back for a retry when it had started no run (nothing happened). */
function lostHolder(db: Kysely<Database>, id: string, error: string) {
  return db
    .updateTable("wakes")
    .set((eb) => ({
      status: eb
        .case()
        .when("run_id", "is", null)
        .then("retrying")
        .else("failed")
        .end() as unknown as WakeStatus,
      error,
      ...released,
      updated_at: now(),
    }))
    .where("id", "=", id)
    .where("status", "=", "running");
}

export async function expireWake(
  db: Kysely<Database>,
  id: string,
  before: string,
  error: string,
): Promise<boolean> {
  const result = await lostHolder(db, id, error).where("lease_until", "<", before).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

export async function takeOverWake(
  db: Kysely<Database>,
  id: string,
  workerId: string,
  error: string,
): Promise<boolean> {
  const result = await lostHolder(db, id, error).where("worker_id", "=", workerId).executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
