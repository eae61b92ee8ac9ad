// The embedded store runs a fixed statement at once only when that is the same as waiting for the
// connection: a read made while another flow's transaction is open waits for it and never sees
// its uncommitted rows; a transaction's own reads see its writes.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openStore, type Store } from "./index.js";

let store: Store | undefined;
let dir: string | undefined;
afterEach(async () => {
  await store?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
  store = dir = undefined;
});

async function open(): Promise<Store> {
  dir = await mkdtemp(join(tmpdir(), "cadre-direct-"));
  store = await openStore({ path: join(dir, "cadre.db") });
  return store;
}

const company = (id: string) => ({
  id,
  name: `Company ${id}`,
  goal: "Test reads.",
  settings: { maxTeamSize: 8, requireHireApproval: false, profile: "semantic" as const },
});
const turns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe("a store read beside an open transaction (SQLite)", () => {
  it("waits for the transaction and never sees a row it rolled back", async () => {
    const s = await open();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let inserted!: () => void;
    const written = new Promise<void>((resolve) => (inserted = resolve));
    const tx = s
      .transaction(async (t) => {
        await t.insertCompany(company("cmp_rolled"));
        inserted();
        await held;
        throw new Error("roll back");
      })
      .catch((error: Error) => error.message);
    await written;
    let read: unknown = "pending";
    const reading = s.getCompany("cmp_rolled").then((row) => (read = row));
    await turns(20);
    expect(read).toBe("pending");
    release();
    expect(await tx).toBe("roll back");
    await reading;
    expect(read).toBeUndefined();
  });

  it("reads the committed row once the transaction commits, and a transaction reads its own writes", async () => {
    const s = await open();
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let seenInside: unknown;
    const tx = s.transaction(async (t) => {
      await t.insertCompany(company("cmp_kept"));
      seenInside = (await t.getCompany("cmp_kept"))?.name;
      await held;
    });
    await turns(5);
    const reading = s.getCompany("cmp_kept");
    release();
    await tx;
    expect(seenInside).toBe("Company cmp_kept");
    expect((await reading)?.name).toBe("Company cmp_kept");
  });
});
