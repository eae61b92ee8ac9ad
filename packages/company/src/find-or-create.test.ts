// Find-or-create of a company is one transaction: callers racing on an empty
// store — on one connection or on several — end up with exactly one company, the others find it.
import { openStore, type Store } from "@cadre/store";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../store/src/testing/postgres.js";
import { findOrCreateCompany } from "./companies.js";

afterAll(dropTestSchemas);

const dialects: Array<[string, () => Promise<Store>]> = [
  ["sqlite", () => openStore({ memory: true })],
  ["postgres", () => openStore({ url: testDatabaseUrl(), schema: freshSchema(), poolSize: 8 })],
];

describe.each(dialects)("findOrCreateCompany (%s)", (_name, open) => {
  let store: Store | undefined;
  afterEach(async () => {
    await store?.close();
    store = undefined;
  });

  it("makes exactly one company when eight callers race on an empty store", async () => {
    const s = (store = await open());
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        findOrCreateCompany(s, { name: "Northwind Robotics" }, async (tx) => (await tx.listCompanies())[0]),
      ),
    );
    const companies = await s.listCompanies();
    expect(companies).toHaveLength(1);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    expect(new Set(results.map((r) => r.company.id))).toEqual(new Set([companies[0]!.id]));
    // One CEO, one creation record: nothing of the losers' attempts was written.
    expect(await s.listAgents(companies[0]!.id)).toHaveLength(1);
    expect(await s.listActivity(companies[0]!.id, { type: "company.created" })).toHaveLength(1);
  });
});
