// Every store method is classified for the audit log: a read, an audited write, or a write that is
// not audited with the reason. A new write method that is in neither list fails here (and does not
// compile in audit-catalog.ts), so no write can be added that the audit log silently misses.
import { describe, expect, it } from "vitest";
import { AUDIT_RULES, READ_METHODS } from "./audit-catalog.js";
import { KyselyQueries } from "./kysely-queries.js";

/** The class's own plumbing, not store methods. */
const PLUMBING = new Set(["constructor", "guard", "atomic", "auditAtomic"]);

describe("audit classification", () => {
  it("classifies every method the store has, once", () => {
    const methods = Object.getOwnPropertyNames(KyselyQueries.prototype).filter((m) => !PLUMBING.has(m));
    const reads = new Set<string>(READ_METHODS);
    const writes = new Set(Object.keys(AUDIT_RULES));
    const unclassified = methods.filter((m) => !reads.has(m) && !writes.has(m));
    expect(unclassified, "classify these in audit-catalog.ts (READ_METHODS or AUDIT_RULES)").toEqual([]);
    expect([...reads].filter((m) => writes.has(m))).toEqual([]);
    expect([...reads, ...writes].filter((m) => !methods.includes(m))).toEqual([]);
  });

  it("gives every write that is not audited a reason", () => {
    for (const [name, rule] of Object.entries(AUDIT_RULES))
      if (!rule.audited) expect(rule.why.length, name).toBeGreaterThan(10);
  });
});
