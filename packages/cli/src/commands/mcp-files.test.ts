// Files handed in through `cadre mcp` (the way Claude Code and Codex reach the company tools): the
// built bin reads them from the agent's workspace under the data directory, and refuses a path
// that leaves it as an isError result the model can read, writing nothing.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  createCompany,
  createTask,
  decideApproval,
  fileApproval,
  hireAgent,
  loadCompanyState,
  workspaceOf,
} from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

let dir: string;
let store: Store;
let client: Client | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-mcp-files-"));
  store = await openStore({ path: join(dir, "cadre.db") });
});
afterEach(async () => {
  await client?.close();
  client = undefined;
  await store.close();
  await rm(dir, { recursive: true, force: true });
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
  const asCeo = { ...operator, agentId: ceo, via: "tool" as const };
  const filed = await fileApproval(store, asCeo, {
    type: "approve_ceo_strategy",
    title: "Plan",
    payload: "# Plan",
  });
  if (!filed.ok) throw new Error(filed.message);
  await decideApproval(store, filed.value.approvalId, "approve", null);
  const task = await createTask(store, asCeo, { title: "Write the plan", assignee: "CTO" });
  if (!task.ok) throw new Error(task.message);
  return { companyId: company.id, cto: hired.value.agentId, taskId: task.value.taskId };
}

describe("update_task with files over cadre mcp", () => {
  it("attaches a file from the agent's workspace; a path leaving it is a readable refusal", async () => {
    const { companyId, cto, taskId } = await operating();
    const workspace = workspaceOf({ dataDir: dir, companyId, agentId: cto });
    await mkdir(workspace, { recursive: true });
    await writeFile(join(workspace, "plan.md"), "# The plan\n");
    await writeFile(join(dir, "outside.md"), "not the agent's");
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [BIN, "mcp", "--agent", cto, "--data", dir],
      env: ENV as Record<string, string>,
      stderr: "pipe",
    });
    client = new Client({ name: "cadre-mcp-files-test", version: "1.0.0" });
    await client.connect(transport);

    const out = await client.callTool({
      name: "update_task",
      arguments: { taskId, comment: "Draft attached.", files: ["../../../outside.md"] },
    });
    expect(out.isError).toBe(true);
    expect((out.content as Array<{ text: string }>)[0]!.text).toMatch(
      /^update_task was not run, nothing was written\. `files` "\.\.\/\.\.\/\.\.\/outside\.md" leaves your workspace/,
    );
    expect(await store.listTaskComments(taskId)).toEqual([]);

    const ok = await client.callTool({
      name: "update_task",
      arguments: { taskId, status: "done", deliverable: "The plan.", files: ["plan.md"] },
    });
    expect(ok.isError).toBe(false);
    const value = JSON.parse((ok.content as Array<{ text: string }>)[0]!.text) as { status: string };
    expect(value).toMatchObject({ status: "in_review", attached: [{ name: "plan.md", size: 11 }] });
    const [kept] = await store.listTaskFiles(taskId);
    expect(kept).toMatchObject({ name: "plan.md", addedBy: cto });
    expect(Buffer.from((await store.getTaskFile(kept!.id))!.content).toString()).toBe("# The plan\n");
  });
});
