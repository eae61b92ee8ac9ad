// One owner of a company's due-work loop at a time: two `cadre run`s at once would race
// for the same wakes, and the second would report "nothing is due" while the first is mid-run. The
// owner is recorded on the company (claimed atomically) with a lease its heartbeat renews; a holder
// whose process is known gone (same host) or whose lease ran out is replaced.
import { hostname } from "node:os";
import type { ProcessOwner, RunOwnerRow, Store } from "@cadre/store";
import { processState, thisProcess } from "../recovery/processes.js";

/** Another process runs the company's due work now: who, since when. */
export class RunOwnedError extends Error {
  constructor(
    readonly companyId: string,
    readonly holder: RunOwnerRow,
  ) {
    super(
      `another \`cadre run\` is running the due work of company ${companyId}: ${describeOwner(holder.owner)}, since ${holder.since}. it runs every wake that comes due until none is left. Wait for it to end (or stop it there with Ctrl-C) and run again; nothing was done here`,
    );
    this.name = "RunOwnedError";
  }
}

/** A process as a person reads it: its pid, and the host unless it is this one. */
export function describeOwner(owner: ProcessOwner): string {
  const host = owner.host.split("/")[0] ?? owner.host;
  return host === hostname() ? `process ${owner.pid} on this machine` : `process ${owner.pid} on ${host}`;
}

export interface RunOwnership {
  /** Lets go of every company it holds (idempotent). */
  release(): Promise<void>;
}

const LEASE_MS = 30_000;

function lease(ms: number): { since: string; until: string } {
  const now = Date.now();
  return { since: new Date(now).toISOString(), until: new Date(now + ms).toISOString() };
}

/** Whether the recorded holder is known to be gone: its process exited, or its lease ran out. */
function holderGone(holder: RunOwnerRow, now: number): boolean {
  if (Date.parse(holder.until) < now) return true;
  return processState(holder.owner) === "gone";
}

async function claimOne(
  store: Store,
  companyId: string,
  me: ProcessOwner,
  ms: number,
): Promise<RunOwnerRow | null> {
  // A few tries: another process may claim or let go between the read and the conditional write.
  for (let attempt = 0; attempt < 5; attempt++) {
    const holder = await store.getRunOwner(companyId);
    if (holder && !holderGone(holder, Date.now())) return holder;
    if (await store.claimRunOwner(companyId, me, lease(ms), holder)) return null;
  }
  const holder = await store.getRunOwner(companyId);
  return holder ?? { owner: me, since: "", until: "" };
}

/**
 * Takes the due work of each company for this process, or throws RunOwnedError naming the process
 * that holds one of them (having let go of those it took). Renewed until release().
 */
export async function takeRunOwnership(
  store: Store,
  companyIds: readonly string[],
  options: { owner?: ProcessOwner; leaseMs?: number } = {},
): Promise<RunOwnership> {
  const me = options.owner ?? thisProcess();
  const ms = options.leaseMs ?? LEASE_MS;
  const held: string[] = [];
  const releaseAll = async () => {
    for (const id of held.splice(0)) await store.releaseRunOwner(id, me).catch(() => undefined);
  };
  for (const companyId of companyIds) {
    const holder = await claimOne(store, companyId, me, ms);
    if (holder) {
      await releaseAll();
      throw new RunOwnedError(companyId, holder);
    }
    held.push(companyId);
  }
  const timer = setInterval(
    () => {
      const until = new Date(Date.now() + ms).toISOString();
      for (const id of held) void store.renewRunOwner(id, me, until).catch(() => undefined);
    },
    Math.max(50, Math.floor(ms / 3)),
  );
  timer.unref();
  return {
    async release() {
      clearInterval(timer);
      await releaseAll();
    },
  };
}
