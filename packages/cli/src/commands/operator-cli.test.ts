// What an operator sees of the operations added with the operator port, through the CLI itself:
// `approvals show` (the strategy in full; after the decision, the decision, note and who decided),
// `agents list` columns that line up, `agents terminate`, `agents keys list|mint|revoke`.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-operator-cli-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function demo() {
  const r = await runCli(["demo", "--data", dir, "--json", "--seed", "5"]);
  expect(r.code, r.err).toBe(0);
  return r.json() as {
    ceo: { agentId: string };
    hires: Array<{ agentId: string; name: string }>;
    approvals: Array<{ id: string }>;
  };
}

describe("cadre approvals show", () => {
  it("prints the strategy in full before the decision, and the decision, its note and who decided after", async () => {
    const { approvals, hires } = await demo();
    const id = approvals[0]!.id;
    const before = await runCli(["approvals", "show", id, "--data", dir]);
    expect(before.code, before.err).toBe(0);
    expect(before.out).toMatch(new RegExp(`^${id}  approve_ceo_strategy — pending\\n`));
    expect(before.out).toMatch(/^title {5}Strategy for Northwind Robotics$/m);
    expect(before.out).toMatch(/^decided {3}not yet: pending/m);
    // The whole filed text, every hire named in it.
    expect(before.out).toMatch(/^ {2}# Strategy for Northwind Robotics$/m);
    for (const h of hires) expect(before.out).toContain(`- ${h.name} (`);

    expect(
      (await runCli(["approvals", "revise", id, "--note", "Add a finance lead", "--data", dir])).code,
    ).toBe(0);
    const after = await runCli(["approvals", "show", id, "--data", dir]);
    expect(after.out).toMatch(new RegExp(`^${id}  approve_ceo_strategy — revision_requested\\n`));
    expect(after.out).toMatch(/^decided {3}revision_requested \S+ by the operator$/m);
    expect(after.out).toMatch(/^note {6}Add a finance lead$/m);
    expect(after.out).toMatch(/^ {2}# Strategy for Northwind Robotics$/m);

    const json = await runCli(["approvals", "show", id, "--data", dir, "--json"]);
    expect(json.json()).toMatchObject({
      id,
      status: "revision_requested",
      decisionNote: "Add a finance lead",
      history: [
        { fromStatus: null, toStatus: "pending" },
        {
          fromStatus: "pending",
          toStatus: "revision_requested",
          actor: "operator",
          note: "Add a finance lead",
        },
      ],
    });
    const missing = await runCli(["approvals", "show", "apr_missing", "--data", dir]);
    expect(missing.code).toBe(2);
    expect(missing.err).toBe("cadre approvals: approval apr_missing not found\n");
  });
});

describe("cadre agents", () => {
  it("list: each column starts at the same place on every line", async () => {
    await demo();
    const list = await runCli(["agents", "list", "--data", dir]);
    const [header = "", ...rows] = list.out.trimEnd().split("\n");
    expect(header).toMatch(/^ID +NAME +ROLE +DEPARTMENT +CONNECTOR\/MODEL +VIA$/);
    expect(rows.length).toBeGreaterThanOrEqual(3);
    // The connector/model column (offline/…) and the via column start under their headings.
    const model = header.indexOf("CONNECTOR/MODEL");
    const via = header.indexOf("VIA");
    for (const row of rows) {
      expect(row.indexOf("offline/offline-scripted-1"), row).toBe(model);
      expect(row.slice(via), row).toMatch(/^(system|tool|http)$/);
    }
  });

  it("terminate removes a hire (the CEO cannot be removed); keys are minted once, listed, revoked", async () => {
    const { ceo, hires } = await demo();
    const hire = hires[0]!;
    const gone = await runCli(["agents", "terminate", hire.agentId, "--data", dir]);
    expect(gone.code, gone.err).toBe(0);
    expect(gone.out).toBe(
      `${hire.name} (${hire.agentId}) is terminated; its keys are revoked and it is no longer woken\n${hire.name} had no open tasks\n`,
    );
    const active = (await runCli(["agents", "list", "--data", dir, "--json"])).json() as Array<{
      id: string;
    }>;
    expect(active.map((a) => a.id)).not.toContain(hire.agentId);
    const all = await runCli(["agents", "list", "--all", "--data", dir]);
    expect(all.out).toMatch(new RegExp(`^${hire.agentId} .* terminated$`, "m"));
    const ceoGone = await runCli(["agents", "terminate", ceo.agentId, "--data", dir]);
    expect(ceoGone.code).toBe(2);
    expect(ceoGone.err).toMatch(/is the company's CEO and cannot be removed/);

    const minted = await runCli(["agents", "keys", "mint", ceo.agentId, "--label", "ci", "--data", dir]);
    expect(minted.code, minted.err).toBe(0);
    const token = /^token: (cadre_agt_\S+)$/m.exec(minted.out)?.[1];
    const keyId = /^key (\S+) for agent/m.exec(minted.out)?.[1];
    expect(token).toBeDefined();
    const listed = await runCli(["agents", "keys", "list", ceo.agentId, "--data", dir]);
    expect(listed.out).toMatch(new RegExp(`^${keyId}  active  .*"ci"$`, "m"));
    expect(listed.out).not.toContain(token);
    const revoked = await runCli(["agents", "keys", "revoke", ceo.agentId, keyId!, "--data", dir, "--json"]);
    expect(revoked.json()).toMatchObject({ id: keyId, revokedAt: expect.any(String) });
    const usage = await runCli(["agents", "keys", "revoke", ceo.agentId, "--data", dir]);
    expect(usage.code).toBe(2);
    expect(usage.err).toMatch(/KEY_ID is required/);
  });
});
