// Deliverables with evidence: update_task attaches files from the agent's workspace.
// Each rule has a test that fails without it: a path that leaves the workspace (.., absolute, a
// link out), a missing file, a directory and a file over the cap are refused with nothing
// written; the copy kept is the file as handed in, whatever happens to the file afterwards; the
// reviewer's briefing names the files.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideApproval } from "../approvals/decide.js";
import { fileApproval } from "../approvals/file.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { hireAgent } from "../team/hire.js";
import { workBriefing } from "./briefing.js";
import { createTask, updateTask } from "./tasks.js";
import { MAX_FILE_BYTES, MAX_FILES } from "./workspace-files.js";

let store: Store;
let dir: string;
beforeEach(async () => {
  store = await openStore({ memory: true });
  dir = mkdtempSync(join(tmpdir(), "cadre-handin-"));
});
afterEach(async () => {
  await store.close();
  rmSync(dir, { recursive: true, force: true });
});

async function operating() {
  const company = await createCompany(store, { name: "Acme", goal: "Robots." });
  const ceo = (await loadCompanyState(store, company.id)).ceo.id;
  const operator = { companyId: company.id, agentId: null, via: "http" as const, runId: null };
  const hired = await hireAgent(store, operator, {
    name: "CTO",
    role: "CTO",
    description: "Leads engineering.",
    connectorId: "offline",
    model: "offline-scripted-1",
    department: "engineering",
  });
  if (!hired.ok || !("agentId" in hired.value)) throw new Error(JSON.stringify(hired));
  const cto = hired.value.agentId;
  const filed = await fileApproval(
    store,
    { ...operator, agentId: ceo, via: "tool" },
    { type: "approve_ceo_strategy", title: "Plan", payload: "# Plan" },
  );
  if (!filed.ok) throw new Error(filed.message);
  await decideApproval(store, filed.value.approvalId, "approve", null);
  const task = await createTask(
    store,
    { ...operator, agentId: ceo, via: "tool" },
    { title: "Write the plan", assignee: "CTO" },
  );
  if (!task.ok) throw new Error(task.message);
  const workspace = join(dir, "workspaces", cto);
  mkdirSync(workspace, { recursive: true });
  const member = { companyId: company.id, agentId: cto, via: "tool" as const, runId: null, workspace };
  return { company, ceo, cto, member, workspace, taskId: task.value.taskId };
}

describe("files handed in from the workspace", () => {
  it("keeps a copy of each file with the task; a later edit of the file changes nothing handed in", async () => {
    const { member, workspace, taskId } = await operating();
    mkdirSync(join(workspace, "docs"));
    writeFileSync(join(workspace, "docs", "plan.md"), "# Plan\n\nShip in May.\n");
    const r = await updateTask(store, member, {
      taskId,
      status: "done",
      deliverable: "The plan, attached.",
      files: ["./docs//plan.md"],
    });
    expect(r.ok, r.ok ? "" : r.message).toBe(true);
    if (!r.ok) return;
    expect(r.value.status).toBe("in_review");
    expect(r.value.attached?.map((f) => [f.name, f.size])).toEqual([["docs/plan.md", 21]]);
    writeFileSync(join(workspace, "docs", "plan.md"), "# Plan\n\nShip never.\n");
    const [kept] = await store.listTaskFiles(taskId);
    expect(kept).toMatchObject({ name: "docs/plan.md", mediaType: "text/markdown", size: 21 });
    const read = await store.getTaskFile(kept!.id);
    expect(Buffer.from(read!.content).toString()).toBe("# Plan\n\nShip in May.\n");
  });

  const refusals: [string, (ws: string) => string, RegExp][] = [
    ["a path with ..", () => "../outside.md", /leaves your workspace/],
    ["an absolute path", (ws) => join(ws, "plan.md"), /is absolute/],
    [
      "a link to a file outside",
      (ws) => {
        writeFileSync(join(dir, "secret.txt"), "not yours");
        symlinkSync(join(dir, "secret.txt"), join(ws, "link.txt"));
        return "link.txt";
      },
      /outside your workspace/,
    ],
    ["a missing file", () => "nowhere.md", /does not exist/],
    [
      "a directory",
      (ws) => {
        mkdirSync(join(ws, "docs"));
        return "docs";
      },
      /is a directory/,
    ],
    [
      "a file over the cap",
      (ws) => {
        writeFileSync(join(ws, "big.bin"), Buffer.alloc(MAX_FILE_BYTES + 1));
        return "big.bin";
      },
      /at most 1048576 bytes/,
    ],
  ];
  for (const [what, make, message] of refusals)
    it(`refuses ${what}, naming the files field, and writes nothing`, async () => {
      const { member, workspace, taskId } = await operating();
      writeFileSync(join(workspace, "plan.md"), "# Plan\n");
      const before = await store.counts();
      const r = await updateTask(store, member, {
        taskId,
        status: "done",
        deliverable: "Attached.",
        files: ["plan.md", make(workspace)],
      });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.message).toMatch(/^update_task was not run, nothing was written\. `files`/);
      expect(r.message).toMatch(message);
      expect(await store.counts()).toEqual(before);
      expect((await store.getTask(taskId))?.status).toBe("todo");
    });

  it(`refuses more than ${MAX_FILES} files at once`, async () => {
    const { member, workspace, taskId } = await operating();
    const names = Array.from({ length: MAX_FILES + 1 }, (_, i) => `f${i}.txt`);
    for (const n of names) writeFileSync(join(workspace, n), n);
    const r = await updateTask(store, member, { taskId, comment: "Files.", files: names });
    expect(r.ok).toBe(false);
    expect(r.ok ? "" : r.message).toMatch(/at most 10 are attached/);
    expect(await store.listTaskFiles(taskId)).toEqual([]);
  });

  it("accepts a link that stays inside the workspace, and the operator without a workspace is refused", async () => {
    const { member, workspace, taskId, company } = await operating();
    writeFileSync(join(workspace, "real.md"), "inside");
    symlinkSync(join(workspace, "real.md"), join(workspace, "alias.md"));
    const r = await updateTask(store, member, { taskId, comment: "See it.", files: ["alias.md"] });
    expect(r.ok, r.ok ? "" : r.message).toBe(true);
    const operator = { companyId: company.id, agentId: null, via: "http" as const, runId: null };
    const o = await updateTask(store, operator, { taskId, comment: "Mine.", files: ["alias.md"] });
    expect(o.ok ? "" : o.message).toMatch(/`files` are attached by an agent from its own workspace/);
  });

  it("names the files handed in in the briefing the reviewer reads", async () => {
    const { member, workspace, taskId, ceo, company } = await operating();
    writeFileSync(join(workspace, "plan.md"), "# Plan\n");
    const r = await updateTask(store, member, {
      taskId,
      status: "done",
      deliverable: "The plan.",
      files: ["plan.md"],
    });
    expect(r.ok).toBe(true);
    const state = await loadCompanyState(store, company.id);
    const briefing = await workBriefing(store, {
      agent: state.ceo,
      agents: state.activeAgents,
      strategy: null,
      taken: [{ trigger: "task_in_review", taskId }],
    });
    const [kept] = await store.listTaskFiles(taskId);
    expect(briefing).toContain(`Files handed in (by CTO (CTO)):`);
    expect(briefing).toContain(`> plan.md (7 bytes, sha256 ${kept!.sha256.slice(0, 12)})`);
    expect(ceo).toBe(state.ceo.id);
  });
});
