// Every record the store answers is what its entity's schema (@cadre/model) says, on every dialect:
// the schema is the record's type, and the API's views are built from it.
import { AgentRowSchema, parse, type TSchema } from "@cadre/model";
import { describe, expect, it } from "vitest";
import { agent, seed, type GetStore } from "./fixtures.js";

/** The fields of `record` its schema refuses, with why; {} when it conforms. */
function problemsOf(schema: TSchema, record: unknown): Record<string, string> {
  const parsed = parse(schema, record);
  return parsed.ok ? {} : parsed.problems;
}

export function entityContract(store: GetStore): void {
  describe("records match their entity schemas", () => {
    it("agents: inserted, read one by one and listed, nulls and booleans included", async () => {
      await seed(store());
      const inserted = await store().insertAgent(
        agent("a1", { reportsTo: "ceo", department: null, via: "http" }),
      );
      const read = [inserted, await store().getAgent("ceo"), ...(await store().listAgents("co1"))];
      expect(read).toHaveLength(4);
      for (const record of read) expect(problemsOf(AgentRowSchema, record)).toEqual({});
    });
  });
}
