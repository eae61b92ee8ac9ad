import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideApproval } from "./decide.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import type { Actor } from "../actions/actor.js";
import { fileApprovalTool } from "../tools/file-approval.js";
import { toolDefinition } from "../tools/entry.js";
import { fileApproval } from "./file.js";
import { hireAgent } from "../team/hire.js";

let store: Store;
let ceo: Actor;
let companyId: string;
const strategy = { type: "approve_ceo_strategy" as const, title: "Strategy", payload: "# Plan\n- ship" };
const hire = {
  name: "CTO",
  role: "Chief Technology Officer",
  description: "Leads engineering.",
  connectorId: "offline",
  model: "offline-scripted-1",
};

beforeEach(async () => {
  store = await openStore({ memory: true });
  const company = await createCompany(store, { name: "Acme", goal: "Sell software" });
  companyId = company.id;
  ceo = { companyId, agentId: (await loadCompanyState(store, companyId)).ceo.id, via: "tool", runId: null };
});
afterEach(async () => store.close());

async function callTool(actor: Actor, raw: unknown) {
  const tool = toolDefinition(fileApprovalTool, store, actor);
  const v = tool.validate(raw);
  if (!v.ok) return { isError: true, text: v.message };
  const outcome = await tool.execute(v.value, { toolCallId: "t", signal: undefined });
  return {
    isError: outcome.isError,
    text: outcome.content.map((c) => (c.type === "text" ? c.text : "")).join(""),
  };
}

describe("C4-2 file_approval", () => {
  it("refuses a strategy before the team exists (team-building phase), writing nothing", async () => {
    const before = await store.counts();
    const r = await callTool(ceo, strategy);
    expect(r).toMatchObject({
      isError: true,
      text: expect.stringMatching(
        /was not run, nothing was written\. A strategy cannot be filed in the team-building phase/,
      ),
    });
    expect(await store.counts()).toEqual(before);
  });

  it("files a pending strategy with history and activity, returns id and status; a second one is refused while pending", async () => {
    await hireAgent(store, ceo, hire);
    const r = await callTool(ceo, strategy);
    expect(r.isError).toBe(false);
    const result = JSON.parse(r.text) as { approvalId: string; status: string; type: string };
    expect(result).toMatchObject({ status: "pending", type: "approve_ceo_strategy" });
    const [row] = await store.listApprovals(companyId);
    expect(row).toMatchObject({
      id: result.approvalId,
      via: "tool",
      filedByAgentId: ceo.agentId,
      payload: "# Plan\n- ship",
    });
    expect(await store.listApprovalEvents(result.approvalId)).toMatchObject([
      { fromStatus: null, toStatus: "pending" },
    ]);
    expect(await store.listActivity(companyId, { type: "approval.filed" })).toHaveLength(1);
    const again = await callTool(ceo, strategy);
    expect(again.text).toMatch(/awaiting-approval phase/);
  });

  it("the approval lifecycle is unchanged: revise → a new strategy can be filed; approve → operating", async () => {
    await hireAgent(store, ceo, hire);
    const first = await fileApproval(store, ceo, strategy);
    if (!first.ok) throw new Error(first.message);
    expect((await decideApproval(store, first.value.approvalId, "revise", "More detail")).modeAfter).toBe(
      "revising",
    );
    const second = await fileApproval(store, ceo, { ...strategy, title: "Strategy v2" });
    if (!second.ok) throw new Error(second.message);
    expect((await decideApproval(store, second.value.approvalId, "approve", null)).modeAfter).toBe(
      "operating",
    );
    expect((await store.listApprovals(companyId)).map((a) => a.status)).toEqual([
      "revision_requested",
      "approved",
    ]);
  });

  it("only the CEO files the strategy; hire approvals only where the company requires them", async () => {
    const hired = await hireAgent(store, ceo, hire);
    if (!hired.ok || !("agentId" in hired.value)) throw new Error("not hired");
    const member: Actor = { ...ceo, agentId: hired.value.agentId };
    expect((await callTool(member, strategy)).text).toMatch(/only the CEO files the company strategy/);
    expect((await callTool(ceo, { ...strategy, type: "hire_agent" })).text).toMatch(
      /does not require approval for hires/,
    );
  });

  it.each([
    [
      "unknown type",
      { ...strategy, type: "budget" },
      /`type` must be one of: approve_ceo_strategy, hire_agent/,
    ],
    ["missing payload", { type: "approve_ceo_strategy", title: "x" }, /`payload` is required/],
    ["payload too long", { ...strategy, payload: "x".repeat(20_001) }, /`payload` is too long/],
    [
      "control character in title",
      { ...strategy, title: "a\u0000b" },
      /`title` contains U\+0000 \(NULL\), a control character/,
    ],
    ["extra field", { ...strategy, status: "approved" }, /`status` unknown field/],
  ])("bad input: %s → readable refusal, nothing written", async (_l, raw, expected) => {
    await hireAgent(store, ceo, hire);
    const before = await store.counts();
    const r = await callTool(ceo, raw);
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(expected);
    expect(r.text).not.toMatch(/\b(C4|MC|OP)-\d+/);
    expect(await store.counts()).toEqual(before);
  });

  it("concurrent decisions on one approval: exactly one wins", async () => {
    await hireAgent(store, ceo, hire);
    const filed = await fileApproval(store, ceo, strategy);
    if (!filed.ok) throw new Error(filed.message);
    const outcomes = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        decideApproval(store, filed.value.approvalId, i % 2 ? "approve" : "reject", `n${i}`),
      ),
    );
    expect(outcomes.filter((o) => o.status === "fulfilled")).toHaveLength(1);
    expect(
      outcomes
        .filter((o) => o.status === "rejected")
        .every((o) => /already decided/.test(String((o as PromiseRejectedResult).reason))),
    ).toBe(true);
    expect(await store.listApprovalEvents(filed.value.approvalId)).toHaveLength(2);
  });
});
