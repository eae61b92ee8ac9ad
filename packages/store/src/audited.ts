// The audit log written with every audited write, in its transaction (audit-catalog.ts says which
// writes and how they read). The store and every transaction's queries are seen through this
// wrapper, so no write can skip it: the row commits with the write or not at all.
import { AUDIT_RULES, type AuditRule } from "./audit-catalog.js";
import { currentAudit } from "./audit-context.js";
import type { NewAuditRow } from "./people-queries.js";
import type { StoreQueries } from "./types.js";

/** What the wrapper needs of the queries: the write in one transaction, and the audit row's insert. */
export interface Auditable {
  /** Runs fn atomically (in the caller's transaction when there is one) with queries that do not audit. */
  auditAtomic<T>(
    fn: (q: StoreQueries, record: (row: NewAuditRow) => Promise<void>) => Promise<T>,
  ): Promise<T>;
}

const RULES = AUDIT_RULES as Record<string, AuditRule>;

async function actorOf(
  q: StoreQueries,
): Promise<Pick<NewAuditRow, "actorType" | "actorId" | "actorName" | "runId" | "requestId">> {
  const { actor, requestId } = currentAudit();
  switch (actor.type) {
    case "operator":
      return { actorType: "operator", actorId: actor.name, actorName: actor.name, runId: null, requestId };
    case "agent": {
      const agent = await q.getAgent(actor.agentId);
      return {
        actorType: "agent",
        actorId: actor.agentId,
        actorName: agent?.name ?? actor.agentId,
        runId: actor.runId,
        requestId,
      };
    }
    case "system":
      return { actorType: "system", actorId: null, actorName: "system", runId: null, requestId };
  }
}

export function audited<T extends object & Auditable>(target: T): T {
  return new Proxy(target, {
    get(t, prop) {
      const rule = typeof prop === "string" ? RULES[prop] : undefined;
      if (rule?.audited) {
        return (...args: unknown[]) =>
          t.auditAtomic(async (q, record) => {
            const before = rule.before ? await rule.before(q, args) : undefined;
            const method = (q as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[
              prop as string
            ]!;
            const result = await method.apply(q, args);
            const entry = rule.describe(args, result, before);
            if (entry) await record({ ...entry, ...(await actorOf(q)) });
            return result;
          });
      }
      // Everything else is the target's own, bound to it (its methods call each other unaudited).
      const value: unknown = Reflect.get(t, prop, t);
      return typeof value === "function" ? (value as (...a: unknown[]) => unknown).bind(t) : value;
    },
  });
}
