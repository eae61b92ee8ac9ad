// The registry is the one list of company tools: every surface's list comes from it, and what an
// entry says about a tool holds — its modes are the ones its operation lets succeed, its schema hash
// is its schema's, its contract names the file that holds its description.
import { readFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { fileURLToPath } from "node:url";
import { CEO_MODES, type CeoMode } from "@cadre/model";
import { openStore, type Store } from "@cadre/store";
import { Type } from "typebox";
import { afterEach, describe, expect, it } from "vitest";
import type { Actor } from "../actions/actor.js";
import { canonicalJson } from "../actions/canonical-json.js";
import { decideApproval } from "../approvals/decide.js";
import { fileApproval } from "../approvals/file.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { hireAgent } from "../team/hire.js";
import { createTask, updateTask } from "../work/tasks.js";
import { defineCompanyTool, toolDefinition } from "./entry.js";
import { MODE_TOOLS, modeOffer, offeredTools, usableTools } from "./offer.js";
import { COMPANY_TOOL_NAMES, COMPANY_TOOLS, companyTool, companyTools } from "./registry.js";

const REPO = fileURLToPath(new URL("../../../../", import.meta.url));
const lead = (name: string) => ({
  name,
  role: `${name} lead`,
  description: "Leads a part of the company.",
  connectorId: "offline",
  model: "offline-scripted-1",
});

/** A call of each tool that its input alone lets succeed; a tool without one fails this suite. */
const VALID: Record<string, (tasks: Tasks) => Record<string, unknown>> = {
  hire_agent: () => lead("CMO"),
  file_approval: () => ({ type: "approve_ceo_strategy", title: "Strategy", payload: "The plan." }),
  create_task: () => ({ title: "Plan the launch", assignee: "CTO" }),
  assign_task: ({ taskId }) => ({ taskId, assignee: "CFO" }),
  update_task: ({ ownTaskId }) => ({ taskId: ownTaskId, comment: "Started." }),
  list_my_tasks: () => ({}),
  reply_to_operator: () => ({ text: "Here is where we stand." }),
  review_task: ({ handedInTaskId }) => ({ taskId: handedInTaskId, decision: "accept" }),
};

/** The operating company's tasks: one for a lead, one assigned to the CEO itself, one a lead handed in. */
interface Tasks {
  taskId: string;
  ownTaskId: string;
  handedInTaskId: string;
}

let store: Store | undefined;
afterEach(async () => store?.close());

/** A company whose CEO is in `mode`, reached the way a company gets there (hires, filing, decisions). */
async function companyIn(mode: CeoMode): Promise<{ ceo: Actor } & Tasks> {
  store = await openStore({ memory: true });
  const company = await createCompany(store, { name: "Acme", goal: "Sell software." });
  const ceoId = (await loadCompanyState(store, company.id)).ceo.id;
  const ceo: Actor = { companyId: company.id, agentId: ceoId, via: "tool", runId: null };
  const none = { ceo, taskId: "task_none", ownTaskId: "task_none", handedInTaskId: "task_none" };
  if (mode === "team-building") return none;
  for (const name of ["CTO", "CFO"]) await hireAgent(store, ceo, lead(name));
  if (mode === "strategy-drafting") return none;
  const filed = await fileApproval(store, ceo, VALID["file_approval"]!(none) as never);
  if (!filed.ok) throw new Error(filed.message);
  if (mode === "awaiting-approval") return none;
  await decideApproval(store, filed.value.approvalId, mode === "revising" ? "reject" : "approve", null);
  if (mode !== "operating") return none;
  const [task, own] = [
    await createTask(store, ceo, { title: "First", assignee: "CTO" }),
    await createTask(store, ceo, { title: "Report", assignee: "CEO" }),
  ];
  const review = await createTask(store, ceo, { title: "Draft", assignee: "CTO" });
  if (!task.ok || !own.ok || !review.ok) throw new Error("the operating company's tasks were refused");
  const cto = (await store.listAgents(company.id)).find((a) => a.name === "CTO")!;
  const handed = await updateTask(
    store,
    { ...ceo, agentId: cto.id },
    { taskId: review.value.taskId, status: "done", deliverable: "The draft." },
  );
  if (!handed.ok) throw new Error(handed.message);
  return { ceo, taskId: task.value.taskId, ownTaskId: own.value.taskId, handedInTaskId: review.value.taskId };
}

describe("the company tool registry", () => {
  it("lists each tool once, and a session's tools are built from its entries in registry order", () => {
    expect(new Set(COMPANY_TOOL_NAMES).size).toBe(COMPANY_TOOLS.length);
    expect(Object.keys(VALID).sort()).toEqual([...COMPANY_TOOL_NAMES].sort());
    const built = companyTools(
      {} as Store,
      { companyId: "c", agentId: null, via: "tool", runId: null },
      [...COMPANY_TOOL_NAMES].reverse(),
    );
    expect(built.map((t) => t.name)).toEqual([...COMPANY_TOOL_NAMES]);
    for (const [i, tool] of built.entries()) {
      expect(tool.description).toBe(COMPANY_TOOLS[i]!.description);
      expect(tool.parameters).toBe(COMPANY_TOOLS[i]!.schema);
    }
    expect(companyTool("bash")).toBeUndefined();
  });

  it("derives the offer and the mode tables from each entry's roles", () => {
    for (const mode of CEO_MODES) {
      const ceo = COMPANY_TOOLS.filter((t) => t.roles.ceo?.offeredIn.includes(mode)).map((t) => t.name);
      expect(offeredTools({ isCeo: true }, mode)).toEqual(ceo);
      expect(modeOffer(mode).offered).toEqual(ceo);
      expect(MODE_TOOLS[mode]).toEqual(usableTools({ isCeo: true }, mode));
      // What can succeed is always among what the session is given.
      for (const isCeo of [true, false])
        for (const tool of usableTools({ isCeo }, mode))
          expect(offeredTools({ isCeo }, mode)).toContain(tool);
    }
    expect(offeredTools({ isCeo: true }, "team-building")).toEqual([
      "hire_agent",
      "file_approval",
      "reply_to_operator",
    ]);
    expect(offeredTools({ isCeo: false }, "operating")).toEqual(["update_task", "list_my_tasks"]);
  });

  it("hashes each schema's canonical JSON, so any change to a schema changes its hash", () => {
    for (const tool of COMPANY_TOOLS)
      expect(tool.schemaHash).toBe(createHash("sha256").update(canonicalJson(tool.schema)).digest("hex"));
    const hire = COMPANY_TOOLS[0];
    const widened = defineCompanyTool({
      ...hire,
      schema: Type.Object({ ...hire.schema.properties, salary: Type.Optional(Type.Number()) }),
    });
    expect(widened.schemaHash).not.toBe(hire.schemaHash);
  });

  it("names, in each contract, the file that holds the tool's description", () => {
    for (const tool of COMPANY_TOOLS) {
      const source = readFileSync(`${REPO}${tool.contract.source}`, "utf8");
      expect(source).toContain(`name: "${tool.name}"`);
      expect(source).toContain(JSON.stringify(tool.description));
    }
  });

  // The entry's modes are facts about the operation: in a mode where the CEO is given a tool but
  // the entry says a call cannot succeed, the operation refuses it for the mode; where the entry
  // says it can, no refusal is about the mode.
  it.each(CEO_MODES)(
    "in %s, the CEO's calls are refused for the mode exactly where the entry says",
    async (mode) => {
      for (const name of offeredTools({ isCeo: true }, mode)) {
        // Each call on a company of its own: a successful hire would move the mode on.
        await store?.close();
        const { ceo, ...tasks } = await companyIn(mode);
        const [tool] = companyTools(store!, ceo, [name]);
        const input = tool!.validate(VALID[name]!(tasks));
        if (!input.ok) throw new Error(input.message);
        const outcome = await tool!.execute(input.value, { toolCallId: "c1", signal: undefined });
        const fields = outcome.isError ? (outcome.details as { fields: Record<string, string> }).fields : {};
        const usable = companyTool(name)!.roles.ceo!.usableIn.includes(mode);
        // Where it can succeed, this valid call does; where it cannot, the refusal is the mode's.
        expect({ name, refusedForMode: "mode" in fields, ok: !outcome.isError }).toEqual({
          name,
          refusedForMode: !usable,
          ok: usable,
        });
      }
    },
  );

  it("binds an entry to a store and an actor as the harness tool every path runs", async () => {
    const { ceo } = await companyIn("team-building");
    const hire = toolDefinition(COMPANY_TOOLS[0], store!, ceo);
    const bad = hire.validate({ ...lead("CTO"), model: 3 });
    expect(bad).toMatchObject({ ok: false, message: expect.stringMatching(/^hire_agent was not run/) });
  });
});
