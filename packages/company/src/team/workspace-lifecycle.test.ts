// An agent's workspace over its life, and what each role may use: made at hire, archived (kept) at
// termination, under the company's own root when it names one; the CEO's tools are the company's
// only, a member's file tools are held to its workspace on every harness.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "../companies.js";
import { hireAgent } from "./hire.js";
import { terminateAgent } from "./terminate.js";
import { claudeCodePolicyFor, codexPolicyFor, piToolsFor } from "./tools-by-role.js";
import { agentWorkspace } from "./workspace-lifecycle.js";
import { workspaceOf } from "./workspace.js";

let dir: string;
let store: Store;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-workspace-lifecycle-"));
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
  await rm(dir, { recursive: true, force: true });
});

async function hire(root?: string) {
  const company = await createCompany(store, {
    name: "Acme",
    goal: "Robots.",
    ...(root !== undefined ? { settings: { workspaceRoot: root } } : {}),
  });
  const operator = { companyId: company.id, agentId: null, via: "http" as const, runId: null, dataDir: dir };
  const hired = await hireAgent(store, operator, {
    name: "CTO",
    role: "CTO",
    description: "Leads engineering.",
    connectorId: "offline",
    model: "offline-scripted-1",
  });
  if (!hired.ok || !("agentId" in hired.value)) throw new Error(JSON.stringify(hired));
  const agent = (await store.getAgent(hired.value.agentId))!;
  return { company, agent };
}

describe("an agent's workspace", () => {
  it("is made at hire under the data directory and archived, not deleted, at termination", async () => {
    const { company, agent } = await hire();
    const workspace = workspaceOf(agentWorkspace(company, agent, dir));
    expect(workspace).toBe(join(dir, "agents", agent.id, "workspace"));
    expect(existsSync(workspace)).toBe(true);
    await writeFile(join(workspace, "plan.md"), "# Plan\n");
    const done = await terminateAgent(store, agent.id, { dataDir: dir });
    expect(done.archivedWorkspace).toBe(join(dir, "archive", agent.id));
    expect(existsSync(workspace)).toBe(false);
    expect(await readFile(join(dir, "archive", agent.id, "plan.md"), "utf8")).toBe("# Plan\n");
    // Terminating again changes nothing.
    expect((await terminateAgent(store, agent.id, { dataDir: dir })).archivedWorkspace).toBeUndefined();
  });

  it("lives under the company's workspaceRoot when it names one", async () => {
    const root = join(dir, "work");
    const { company, agent } = await hire(root);
    expect(company.settings.workspaceRoot).toBe(root);
    expect(existsSync(join(root, agent.id))).toBe(true);
    expect(existsSync(join(dir, "agents", agent.id, "workspace"))).toBe(false);
    const done = await terminateAgent(store, agent.id, { dataDir: dir });
    expect(done.archivedWorkspace).toBe(join(root, "archive", agent.id));
  });

  it("a workspaceRoot that is not an absolute path is refused, naming the setting; no company is made", async () => {
    for (const bad of ["work", "./work", "/srv/../etc", "/srv/./x"]) {
      await expect(
        createCompany(store, { name: `Acme ${bad}`, goal: "Robots.", settings: { workspaceRoot: bad } }),
      ).rejects.toThrow(/workspaceRoot/);
    }
    expect(await store.listCompanies()).toEqual([]);
  });
});

describe("tools by role", () => {
  const connector = { id: "c", config: {} };
  const ceo = { isCeo: true };
  const member = { isCeo: false };
  const ws = "/srv/cadre/agents/agt_1/workspace";

  it("the CEO gets no built-in tool on any harness, whatever the connector allows", () => {
    const generous = {
      id: "c",
      config: {
        allowedTools: ["Read", "Bash"],
        sandboxMode: "workspace-write",
        shell: true,
        webSearch: true,
      },
    };
    expect(claudeCodePolicyFor(ceo, generous, ws)).toEqual({ permissionMode: "dontAsk", allowedTools: [] });
    expect(codexPolicyFor(ceo, generous)).toMatchObject({
      sandboxMode: "read-only",
      shell: false,
      webSearch: false,
      fileTools: false,
    });
    expect(piToolsFor(ceo, connector, ws)).toEqual({ codingTools: [] });
  });

  it("a member gets the file tools confined to its workspace, no shell", () => {
    const cc = claudeCodePolicyFor(member, connector, ws);
    expect(cc.workspace).toBe(ws);
    expect(cc.allowedTools).toEqual(["Read", "Write", "Edit", "Glob", "Grep"].map((t) => `${t}(/${ws}/**)`));
    expect(cc.shell).toBeUndefined();
    expect(codexPolicyFor(member, connector)).toMatchObject({
      sandboxMode: "workspace-write",
      shell: false,
      fileTools: true,
    });
    expect(piToolsFor(member, connector, ws)).toEqual({
      codingTools: ["read", "write", "edit", "ls"],
      workspace: ws,
    });
    expect(piToolsFor(member, connector, ws, ["read"])).toEqual({ codingTools: ["read"], workspace: ws });
  });

  it("the shell only where the harness sandboxes it: never on Pi", () => {
    const shell = { id: "c", config: { shell: true } };
    expect(claudeCodePolicyFor(member, shell, ws)).toMatchObject({
      shell: true,
      allowedTools: expect.arrayContaining(["Bash"]),
    });
    expect(codexPolicyFor(member, shell)).toMatchObject({ sandboxMode: "workspace-write", shell: true });
    expect(() => piToolsFor(member, shell, ws)).toThrow(/Pi has no sandbox/);
    expect(() => piToolsFor(member, connector, ws, ["bash"])).toThrow(/Pi has no sandbox/);
    expect(() => claudeCodePolicyFor(member, { id: "c", config: { shell: "yes" } }, ws)).toThrow(
      /config\.shell must be true or false/,
    );
  });
});
