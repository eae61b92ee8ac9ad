// C4-4, one decision per wake: the wake resolves the CEO's mode once; the trigger is chosen later,
// inside the transaction that claims the run (from the due wake requests), and the cue is that one
// decision's for it. Checked on what reached the model: the system prompt's mode document, the first
// user turn (the cue) and the run row all name one phase — in every mode a CEO is woken in, with the
// trigger given by the caller, taken from a request, or inferred.
import type { Script } from "@cadre/core/offline";
import type { CeoMode } from "@cadre/model";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { decideApproval } from "./approvals/decide.js";
import { createCompany } from "./companies.js";
import { MODE_TITLES } from "./modes.js";
import { MODE_DOCUMENTS } from "./profiles/semantic/mode-documents.js";
import { loadCompanyState } from "./state.js";
import { fileApproval } from "./approvals/file.js";
import { hireAgent } from "./team/hire.js";
import { type WakeResult, wakeAgent, wakeIfDue } from "./wake.js";
import { createTask, updateTask } from "./work/tasks.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

interface Seen {
  system: string;
  user: string;
}

/** A model that only looks: it records the system prompt and the first user turn, and says "Noted." */
function looking(seen: Seen[]): Script {
  return ({ context }) => {
    const first = context.messages.find((m) => m.role === "user");
    const user =
      typeof first?.content === "string"
        ? first.content
        : (first?.content ?? []).map((c) => (c.type === "text" ? c.text : "")).join("");
    seen.push({ system: context.systemPrompt ?? "", user });
    return { content: [{ type: "text", text: "Noted." }] };
  };
}

/** The phases whose mode document the system prompt holds (by each document's own first line). */
const documentsIn = (system: string) =>
  (Object.keys(MODE_DOCUMENTS) as CeoMode[]).filter((m) => system.includes(MODE_DOCUMENTS[m]));

describe("C4-4: one CEO-mode decision per wake", () => {
  it("the cue the claim chose and the mode document in the system prompt name one phase, in every mode", async () => {
    const company = await createCompany(store, { name: "Acme", goal: "Robots." });
    const ceo = (await loadCompanyState(store, company.id)).ceo.id;
    const asCeo = { companyId: company.id, agentId: ceo, via: "tool" as const, runId: null };
    const operator = { companyId: company.id, agentId: null, via: "http" as const, runId: null };
    const seen: Seen[] = [];
    const script = looking(seen);
    const checked: Array<[string, string]> = [];
    const check = async (
      woken: Promise<WakeResult | undefined>,
      expected: { mode: CeoMode; trigger: string; line: string },
    ) => {
      const result = await woken;
      expect(result, `${expected.mode}/${expected.trigger}`).toBeDefined();
      const { run, cue } = result!;
      const { system, user } = seen.at(-1)!;
      const title = MODE_TITLES[expected.mode];
      expect([run.mode, run.trigger]).toEqual([expected.mode, expected.trigger]);
      expect(documentsIn(system)).toEqual([expected.mode]);
      expect(cue).toBe(run.cue);
      expect(cue).toContain(`Review your ${title} operating instructions`);
      expect(cue).toContain(expected.line);
      expect(user).toContain(cue);
      // No other phase's title anywhere in the cue.
      for (const other of Object.values(MODE_TITLES)) if (other !== title) expect(cue).not.toContain(other);
      checked.push([run.mode, run.trigger]);
    };

    // team-building, the operator's explicit trigger (given by the caller).
    await check(wakeAgent({ store, agentId: ceo, trigger: "start_team_building", script }), {
      mode: "team-building",
      trigger: "start_team_building",
      line: "The operator asks you to start building your team.",
    });
    const hired = await hireAgent(store, operator, {
      name: "CTO",
      role: "CTO",
      description: "Builds.",
      connectorId: "offline",
      model: "offline-scripted-1",
    });
    expect(hired.ok).toBe(true);
    const cto = (hired as { value: { agentId: string } }).value.agentId;
    // strategy-drafting, inferred (no request, no decision since the last run): routine.
    await check(wakeAgent({ store, agentId: ceo, script }), {
      mode: "strategy-drafting",
      trigger: "routine",
      line: "Your team is in place and your strategy has not been filed yet.",
    });
    const file = async () => {
      const filed = await fileApproval(store, asCeo, {
        type: "approve_ceo_strategy",
        title: "Plan",
        payload: "# Plan\n- ship",
      });
      if (!filed.ok) throw new Error(filed.message);
      return filed.value.approvalId;
    };
    const first = await file();
    await check(wakeAgent({ store, agentId: ceo, script }), {
      mode: "awaiting-approval",
      trigger: "routine",
      line: "Your strategy is waiting for the operator's decision.",
    });
    // revising, the trigger taken from the decision's wake request inside the claim.
    await decideApproval(store, first, "revise", "Add a budget.");
    await check(wakeIfDue({ store, agentId: ceo, script }), {
      mode: "revising",
      trigger: "approval_decided",
      line: "The operator has decided on your strategy.",
    });
    // operating, from the approval's request; then from a task handed in for review (task_in_review).
    await decideApproval(store, await file(), "approve", null);
    await check(wakeIfDue({ store, agentId: ceo, script }), {
      mode: "operating",
      trigger: "approval_decided",
      line: "The operator has decided on your strategy.",
    });
    const task = await createTask(store, asCeo, { title: "Ship", assignee: "CTO" });
    if (!task.ok) throw new Error(task.message);
    await updateTask(
      store,
      { companyId: company.id, agentId: cto, via: "tool", runId: null },
      { taskId: task.value.taskId, status: "done", deliverable: "Shipped." },
    );
    await check(wakeIfDue({ store, agentId: ceo, script }), {
      mode: "operating",
      trigger: "task_in_review",
      line: "Work you delegated has been handed in for your review.",
    });
    expect(checked).toEqual([
      ["team-building", "start_team_building"],
      ["strategy-drafting", "routine"],
      ["awaiting-approval", "routine"],
      ["revising", "approval_decided"],
      ["operating", "approval_decided"],
      ["operating", "task_in_review"],
    ]);
  });
});
