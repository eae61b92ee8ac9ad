// `cadre tasks review`: done means accepted. On the demo's company, once it has run: a
// task the operator created and a lead handed in waits for the operator's review; changes go back
// to the lead with the reasons (and wake it), the second hand-in is accepted; bad input is exit 2
// with one line, and changes nothing.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let dir: string;
let lead: { agentId: string; name: string };
const cli = (...argv: string[]) => runCli([...argv, "--data", dir]);

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-tasks-review-"));
  const demo = await cli("demo", "--seed", "5", "--json");
  expect(demo.code, demo.err).toBe(0);
  const summary = demo.json() as { approvals: Array<{ id: string }>; hires: Array<typeof lead> };
  lead = summary.hires[0]!;
  expect((await cli("approvals", "approve", summary.approvals[0]!.id)).code).toBe(0);
  expect((await cli("run", "--until-idle")).code).toBe(0);
}, 180_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const status = async (id: string) =>
  ((await cli("tasks", "show", id, "--json")).json() as { status: string }).status;

describe("cadre tasks review", () => {
  it("the offline company ends with every task the CEO delegated accepted", async () => {
    const list = (await cli("tasks", "list", "--json")).json() as Array<{ status: string }>;
    expect(list.length).toBeGreaterThan(0);
    expect(list.every((t) => t.status === "done")).toBe(true);
  });

  it("a hand-in waits for the operator; --changes sends it back with the reasons; --accept makes it done", async () => {
    const created = await cli("tasks", "create", "--title", "Pilot plan", "--assignee", lead.name, "--json");
    expect(created.code, created.err).toBe(0);
    const { taskId } = created.json() as { taskId: string };
    expect((await cli("run", "--until-idle")).code).toBe(0);
    expect(await status(taskId)).toBe("in_review");

    const early = await cli("tasks", "review", taskId, "--accept", "--changes", "x");
    expect(early.code).toBe(2);
    expect(early.err).toMatch(/exactly one of --accept or --changes/);
    const blank = await cli("tasks", "review", taskId, "--changes", "");
    expect(blank.code).toBe(2);
    expect(await status(taskId)).toBe("in_review");

    const back = await cli("tasks", "review", taskId, "--changes", "Name the pilot customer.", "--json");
    expect(back.code, back.err).toBe(0);
    expect(back.json()).toMatchObject({ status: "in_progress", wakes: [lead.name] });
    const shown = await cli("tasks", "show", taskId);
    expect(shown.out).toContain("Name the pilot customer.");

    expect((await cli("run", "--until-idle")).code).toBe(0);
    expect(await status(taskId)).toBe("in_review");
    const accepted = await cli("tasks", "review", taskId, "--accept", "--json");
    expect(accepted.code, accepted.err).toBe(0);
    expect(accepted.json()).toMatchObject({ status: "done" });
    const again = await cli("tasks", "review", taskId, "--accept");
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/only a task handed in/);
  });
});
