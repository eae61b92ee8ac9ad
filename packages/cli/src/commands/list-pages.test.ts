// `--limit` and `--after` on the CLI's lists: a page at a time, the command for the next page printed
// after it (on stderr with --json, so stdout stays one JSON array), and a bad flag refused.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-pages-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A company whose CEO has three colleagues. */
async function seed(): Promise<void> {
  const created = await runCli(["company", "create", "--name", "Acme", "--data", dir, "--json"]);
  expect(created.code).toBe(0);
  const store = await openStore({ path: join(dir, "cadre.db") });
  try {
    for (const name of ["Ann", "Bob", "Cy"])
      await store.insertAgent({
        id: `agt_${name.toLowerCase()}`,
        companyId: created.json().id as string,
        name,
        role: "Engineer",
        description: "Builds.",
        department: null,
        connectorId: "offline",
        model: "offline-scripted-1",
        reportsTo: null,
        isCeo: false,
        status: "active",
        via: "tool",
      });
  } finally {
    await store.close();
  }
}

describe("paged CLI lists", () => {
  it("agents list --limit pages the team and prints the command for the next page", async () => {
    await seed();
    const names: string[] = [];
    let args = ["agents", "list", "--limit", "3", "--data", dir, "--json"];
    for (let pages = 0; pages < 5; pages++) {
      const r = await runCli(args);
      expect(r.code).toBe(0);
      const page = r.json() as Array<{ name: string }>;
      expect(page.length).toBeLessThanOrEqual(3);
      names.push(...page.map((a) => a.name));
      const more = /^more: cadre (.+)$/m.exec(r.err);
      if (!more) break;
      expect(r.out).not.toContain("more:");
      args = more[1]!.split(" ");
    }
    expect(names).toHaveLength(4);
    expect(names.slice(1)).toEqual(["Ann", "Bob", "Cy"]);

    const text = await runCli(["agents", "list", "--limit", "2", "--data", dir]);
    expect(text.out).toMatch(/^more: cadre agents list --limit 2 --data \S+ --after \S+$/m);
  });

  it("refuses a limit out of range and a cursor no page printed, saying what is allowed", async () => {
    await seed();
    const big = await runCli(["agents", "list", "--limit", "501", "--data", dir]);
    expect(big.code).toBe(2);
    expect(big.err).toMatch(/--limit must be a whole number from 1 to 500/);
    const bad = await runCli(["tasks", "list", "--after", "nonsense", "--data", dir]);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/--after must be the next-page cursor a previous page printed/);
  });
});
