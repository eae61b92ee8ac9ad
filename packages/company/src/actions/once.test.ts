// Tool-call idempotency (MC-10 across machines), on SQLite and PostgreSQL: a tool call of a run
// executed again returns the first execution's result and writes nothing, even when the executions
// race on several connections.
import { openStore, type Store } from "@cadre/store";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { dropTestSchemas, freshSchema, testDatabaseUrl } from "../../../store/src/testing/postgres.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import type { Actor } from "./actor.js";
import { toolDefinition } from "../tools/entry.js";
import { fileApprovalTool } from "../tools/file-approval.js";
import { hireAgentTool } from "../tools/hire-agent.js";

afterAll(dropTestSchemas);

const cto = {
  name: "CTO",
  role: "Chief Technology Officer",
  description: "Leads engineering.",
  connectorId: "offline",
  model: "offline-scripted-1",
};

const dialects: Array<[string, () => Promise<Store>]> = [
  ["sqlite", () => openStore({ memory: true })],
  ["postgres", () => openStore({ url: testDatabaseUrl(), schema: freshSchema(), poolSize: 8 })],
];

describe.each(dialects)("tool calls are idempotent per run and tool-call id (%s)", (_name, open) => {
  let store: Store;
  let actor: Actor;

  beforeEach(async () => {
    store = await open();
    const company = await createCompany(store, {
      name: "Acme",
      goal: "Sell software",
      settings: { maxTeamSize: 5 },
    });
    const ceo = (await loadCompanyState(store, company.id)).ceo;
    const run = await store.insertRun({
      id: "run_1",
      companyId: company.id,
      agentId: ceo.id,
      trigger: "routine",
      mode: "team-building",
      profile: "semantic",
      cue: "Go.",
    });
    actor = { companyId: company.id, agentId: ceo.id, via: "tool", runId: run.id };
  });
  afterEach(async () => store.close());

  const hire = (toolCallId: string, input: object = cto, who: Actor = actor) =>
    toolDefinition(hireAgentTool, store, who).execute(input as typeof cto, { toolCallId, signal: undefined });
  const members = async () => (await store.listAgents(actor.companyId)).filter((a) => !a.isCeo);

  it("hires once when the same call runs twice, answering the same result both times", async () => {
    const first = await hire("call_1");
    const counts = await store.counts();
    const second = await hire("call_1");
    expect(first.isError).toBe(false);
    expect(second).toEqual(first);
    expect(await members()).toHaveLength(1);
    expect(await store.counts()).toEqual(counts);
    expect(await store.listActivity(actor.companyId, { type: "agent.hired" })).toHaveLength(1);
  });

  it("hires again for another call id, where the rules allow", async () => {
    const first = await hire("call_1");
    const second = await hire("call_2", { ...cto, name: "CFO", role: "Chief Financial Officer" });
    expect(second.isError).toBe(false);
    expect(second.details).not.toEqual(first.details);
    expect((await members()).map((a) => a.name)).toEqual(["CTO", "CFO"]);
    // A refusal records nothing: the same name under a new id is refused by the rules, not replayed.
    const refused = await hire("call_3");
    expect(refused.isError).toBe(true);
    expect((await store.counts())["tool_calls"]).toBe(2);
  });

  it("files an approval once when the same call runs twice", async () => {
    await hire("call_1");
    const file = (toolCallId: string) =>
      toolDefinition(fileApprovalTool, store, actor).execute(
        { type: "approve_ceo_strategy", title: "Strategy", payload: "# Plan" },
        { toolCallId, signal: undefined },
      );
    const first = await file("call_2");
    const second = await file("call_2");
    expect(first.isError).toBe(false);
    expect(second).toEqual(first);
    expect(await store.listApprovals(actor.companyId)).toHaveLength(1);
  });

  it("refuses an id already used by another call, naming it, and writes nothing", async () => {
    await hire("call_1");
    const counts = await store.counts();
    const other = await hire("call_1", { ...cto, name: "CFO" });
    expect(other.isError).toBe(true);
    expect(other.content[0]).toMatchObject({
      text: expect.stringMatching(
        /nothing was written. `toolCallId` "call_1" was already used in this run by another hire_agent call with other arguments/,
      ),
    });
    const file = await toolDefinition(fileApprovalTool, store, actor).execute(
      { type: "approve_ceo_strategy", title: "S", payload: "P" },
      { toolCallId: "call_1", signal: undefined },
    );
    expect(file.content[0]).toMatchObject({
      text: expect.stringMatching(/already used in this run by another tool \(hire_agent\)/),
    });
    expect(await store.counts()).toEqual(counts);
  });

  it("keeps calls outside a run (HTTP, legacy) unkeyed: each one acts", async () => {
    const outside = { ...actor, runId: null };
    expect((await hire("t", cto, outside)).isError).toBe(false);
    expect((await hire("t", { ...cto, name: "CFO" }, outside)).isError).toBe(false);
    expect(await members()).toHaveLength(2);
    expect((await store.counts())["tool_calls"]).toBe(0);
  });

  it("hires once when the same call runs on several connections at once; every execution gets the winner's result", async () => {
    const outcomes = await Promise.all(Array.from({ length: 6 }, () => hire("call_1")));
    const hired = await members();
    expect(hired).toHaveLength(1);
    for (const outcome of outcomes)
      expect(outcome).toEqual({
        content: [
          {
            type: "text",
            text: JSON.stringify({ agentId: hired[0]!.id, name: "CTO", role: "Chief Technology Officer" }),
          },
        ],
        isError: false,
        details: { agentId: hired[0]!.id, name: "CTO", role: "Chief Technology Officer" },
      });
    expect(await store.listActivity(actor.companyId, { type: "agent.hired" })).toHaveLength(1);
  });
});
