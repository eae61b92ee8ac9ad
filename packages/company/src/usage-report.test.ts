import { cacheHitRate } from "@cadre/model";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "./companies.js";
import { loadCompanyState } from "./state.js";
import { companyUsageReport, runUsageReport, toolCallsOf } from "./usage-report.js";
import { wakeAgent } from "./wake.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => store.close());

describe("usage reports per run, per agent, per company", () => {
  it("sum the stored counters, split a run per model call, and price them from the registry", async () => {
    const company = await createCompany(store, { name: "Acme", goal: "Build warehouse robots." });
    const ceo = (await loadCompanyState(store, company.id)).ceo;
    const first = await wakeAgent({ store, agentId: ceo.id, trigger: "start_team_building", seed: 2 });
    const second = await wakeAgent({ store, agentId: ceo.id, seed: 2 });

    const run = await runUsageReport(store, first.run.id);
    expect(run.turns!.length).toBeGreaterThan(1);
    const summed = run.turns!.reduce(
      (t, x) => ({
        input: t.input + x.usage.input,
        output: t.output + x.usage.output,
        cacheRead: t.cacheRead + x.usage.cacheRead,
        cacheWrite: t.cacheWrite + x.usage.cacheWrite,
      }),
      { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
    );
    expect(summed).toEqual({
      input: first.usage.input,
      output: first.usage.output,
      cacheRead: first.usage.cacheRead,
      cacheWrite: first.usage.cacheWrite,
    });
    expect(run.usage).toMatchObject({
      ...summed,
      total: summed.input + summed.output + summed.cacheRead + summed.cacheWrite,
      cost: 0,
    });
    expect(run.usage.hitRate).toBeCloseTo(cacheHitRate(first.usage), 12);
    expect(run.turns![0]!.usage.cacheRead).toBe(0); // cold first call
    expect(run.turns![1]!.usage.hitRate).toBeGreaterThan(0.5);

    const report = await companyUsageReport(store, company.id);
    expect(report.runs.map((r) => r.runId)).toEqual([first.run.id, second.run.id]);
    const ceoReport = report.agents.find((a) => a.agentId === ceo.id)!;
    expect(ceoReport.runs).toBe(2);
    expect(ceoReport.usage.input).toBe(first.usage.input + second.usage.input);
    expect(report.usage.total).toBe(report.runs.reduce((n, r) => n + r.usage.total, 0));
    expect(
      report.agents.filter((a) => a.agentId !== ceo.id).every((a) => a.runs === 0 && a.usage.total === 0),
    ).toBe(true);
  });
});

describe("a run's tool calls", () => {
  const ev = (type: string, data: Record<string, unknown>) => ({ type, data: { type, ...data } });
  it("counts each call once by its id, and lists the refused ones with what the harness answered, in either order", () => {
    const answer = (id: string, text: string) =>
      ev("tool_result", { toolUseId: id, name: "x", isError: true, content: [{ type: "text", text }] });
    const report = toolCallsOf([
      // Codex: a call it ran (toolcall_end and tool_use), then one it refused (tool_use first).
      ev("toolcall_end", { id: "a", name: "mcp__cadre__add", input: {} }),
      ev("tool_use", { id: "a", name: "mcp__cadre__add", input: {} }),
      ev("tool_result", { toolUseId: "a", name: "mcp__cadre__add", isError: false, content: [] }),
      ev("tool_use", { id: "b", name: "hire_agent", input: {}, refused: true }),
      answer("b", "unsupported call: hire_agent"),
      // Claude Code: the answer before the call is marked refused.
      answer("c", "No such tool available: fire_agent"),
      ev("toolcall_end", { id: "c", name: "fire_agent", input: {} }),
      ev("tool_use", { id: "c", name: "fire_agent", input: {}, refused: true }),
      // A call that failed when it ran is not a refusal.
      ev("toolcall_end", { id: "d", name: "mcp__cadre__add", input: {} }),
      answer("d", "add was not run"),
    ]);
    expect(report).toEqual({
      total: 4,
      refused: [
        { name: "hire_agent", result: "unsupported call: hire_agent" },
        { name: "fire_agent", result: "No such tool available: fire_agent" },
      ],
    });
  });
});
