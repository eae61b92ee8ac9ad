// A hire the operator approves from the inbox (requireHireApproval) is made in the decision's
// transaction, where no file is touched; its workspace is made at its first session, where its
// harness works: the offline member writes its deliverable there and hands it in with that file.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, expect, it } from "vitest";
import { decideApproval } from "../approvals/decide.js";
import { fileApproval } from "../approvals/file.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { wakeIfDue } from "../wake.js";
import { createTask } from "../work/tasks.js";
import { hireAgent } from "./hire.js";
import { agentWorkspace } from "./workspace-lifecycle.js";
import { workspaceOf } from "./workspace.js";

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-hire-approval-workspace-"));
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

it("a hire approved from the operator's inbox gets its workspace at its first session, and works in it", async () => {
  const company = await createCompany(store, {
    name: "Careful",
    goal: "Robots.",
    settings: { requireHireApproval: true },
  });
  const ceo = (await loadCompanyState(store, company.id)).ceo;
  const asCeo = { companyId: company.id, agentId: ceo.id, via: "tool" as const, runId: null, dataDir: dir };
  const filedHire = await hireAgent(store, asCeo, {
    name: "CTO",
    role: "Chief Technology Officer",
    description: "Builds it.",
    connectorId: "offline",
    model: "offline-scripted-1",
    department: "engineering",
  });
  if (!filedHire.ok || !("approvalId" in filedHire.value)) throw new Error(JSON.stringify(filedHire));
  const decided = await decideApproval(store, filedHire.value.approvalId, "approve", null);
  const cto = (await store.getAgent(decided.hired!))!;
  const workspace = workspaceOf(agentWorkspace(company, cto, dir));
  // Approved, hired, and no workspace yet: the decision's transaction touches no file.
  expect(existsSync(workspace)).toBe(false);

  const strategy = await fileApproval(store, asCeo, {
    type: "approve_ceo_strategy",
    title: "Plan",
    payload: "# Plan",
  });
  if (!strategy.ok) throw new Error(strategy.message);
  await decideApproval(store, strategy.value.approvalId, "approve", null);
  const task = await createTask(store, asCeo, { title: "Choose the robot platform", assignee: "CTO" });
  if (!task.ok) throw new Error(task.message);
  const run = await wakeIfDue({ store, agentId: cto.id, dataDir: dir });
  expect(run?.terminal).toBe("done");
  expect(existsSync(workspace)).toBe(true);
  // Its harness worked there: the file it wrote is in the workspace and kept with the task it handed in.
  const [kept] = await store.listTaskFiles(task.value.taskId);
  expect(kept).toMatchObject({ addedBy: cto.id, runId: run!.run.id });
  const written = await readFile(join(workspace, kept!.name), "utf8");
  expect(Buffer.from((await store.getTaskFile(kept!.id))!.content).toString()).toBe(written);
  expect((await store.getTask(task.value.taskId))?.status).toBe("in_review");
});
