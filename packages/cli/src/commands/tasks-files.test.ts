// `cadre tasks show` and `cadre tasks file`: the files a lead handed in from its
// workspace are listed with the task (name, size, hash prefix) and read back as the copy kept —
// the file edited since in the workspace changes nothing; a binary file needs --out; an unknown
// name is exit 2 naming the files there are.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { updateTask, workspaceOf } from "@cadre/company";
import { openStore } from "@cadre/store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
let taskId: string;
const cli = (...argv: string[]) => runCli([...argv, "--data", dir]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-tasks-files-"));
  const demo = await cli("demo", "--seed", "5", "--json");
  expect(demo.code, demo.err).toBe(0);
  const summary = demo.json() as {
    companyId: string;
    approvals: Array<{ id: string }>;
    hires: Array<{ agentId: string; name: string }>;
  };
  const lead = summary.hires[0]!;
  expect((await cli("approvals", "approve", summary.approvals[0]!.id)).code).toBe(0);
  const created = await cli("tasks", "create", "--title", "Pilot plan", "--assignee", lead.name, "--json");
  expect(created.code, created.err).toBe(0);
  taskId = (created.json() as { taskId: string }).taskId;
  // The lead hands its files in as its tool would: from its workspace under the data directory.
  const workspace = workspaceOf({ dataDir: dir, companyId: summary.companyId, agentId: lead.agentId });
  await mkdir(join(workspace, "docs"), { recursive: true });
  await writeFile(join(workspace, "docs", "pilot.md"), "# Pilot\n\nThree customers.\n");
  await writeFile(join(workspace, "chart.bin"), Buffer.from([0, 159, 146, 150]));
  const store = await openStore({ path: join(dir, "cadre.db") });
  try {
    const r = await updateTask(
      store,
      { companyId: summary.companyId, agentId: lead.agentId, via: "tool", runId: null, workspace },
      { taskId, status: "done", deliverable: "The pilot plan.", files: ["docs/pilot.md", "chart.bin"] },
    );
    expect(r.ok, r.ok ? "" : r.message).toBe(true);
  } finally {
    await store.close();
  }
  await writeFile(join(workspace, "docs", "pilot.md"), "# Pilot\n\nNo customers.\n");
}, 180_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("files handed in, from the CLI", () => {
  it("tasks show lists each file with its size and hash prefix", async () => {
    const shown = await cli("tasks", "show", taskId);
    expect(shown.code, shown.err).toBe(0);
    expect(shown.out).toMatch(/docs\/pilot\.md {2}26 bytes {2}sha256 [0-9a-f]{12} {2}by /);
    expect(shown.out).toMatch(/chart\.bin {2}4 bytes/);
    const json = (await cli("tasks", "show", taskId, "--json")).json() as { files: { name: string }[] };
    expect(json.files.map((f) => f.name)).toEqual(["docs/pilot.md", "chart.bin"]);
  });

  it("tasks file prints the copy handed in, not the file as edited since", async () => {
    const printed = await cli("tasks", "file", taskId, "docs/pilot.md");
    expect(printed.code, printed.err).toBe(0);
    expect(printed.out).toBe("# Pilot\n\nThree customers.\n");
  });

  it("a binary file is written with --out, and refused on stdout", async () => {
    const refused = await cli("tasks", "file", taskId, "chart.bin");
    expect(refused.code).toBe(2);
    expect(refused.err).toMatch(/not text .*--out PATH/);
    const out = join(dir, "chart-copy.bin");
    const written = await cli("tasks", "file", taskId, "chart.bin", "--out", out);
    expect(written.code, written.err).toBe(0);
    expect([...(await readFile(out))]).toEqual([0, 159, 146, 150]);
  });

  it("cadre approvals list names the task handed in that waits for the operator's review", async () => {
    const listed = await cli("approvals", "list");
    expect(listed.code, listed.err).toBe(0);
    expect(listed.out).toContain("tasks waiting for your review");
    expect(listed.out).toMatch(new RegExp(`${taskId} +yours to review +"Pilot plan"`));
    // --json stays the approvals alone.
    const json = (await cli("approvals", "list", "--json")).json() as unknown[];
    expect(json.every((a) => (a as { type?: string }).type !== undefined)).toBe(true);
  });

  it("an unknown file is exit 2, naming the files there are", async () => {
    const r = await cli("tasks", "file", taskId, "nope.md");
    expect(r.code).toBe(2);
    expect(r.err).toMatch(/has no file "nope.md"; its files: docs\/pilot.md, chart.bin/);
  });
});
