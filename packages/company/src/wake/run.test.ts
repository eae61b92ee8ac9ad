// The run stage on the offline connector: the session opened from the plan, its turn sent with the
// cue, every event recorded through to one terminal; an abort before the first call cancels it
// with the abort's reason, and a model call held past the run's wall-time cap is cancelled on it.
import type { AgentEvent, StreamFn } from "@cadre/core";
import { openStore, type Store } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { setBudget } from "../budgets/manage.js";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import { beginRun } from "./begin.js";
import { claimWake } from "./claim.js";
import type { WakeOptions } from "./options.js";
import { planWake } from "./plan.js";
import { runSession } from "./run.js";
import { settleRun } from "./settle.js";

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => {
  await store.close();
});

async function runOnce(
  extra: Partial<WakeOptions>,
  run: { signal?: AbortSignal; wallSeconds?: number } = {},
) {
  const c = await createCompany(store, { name: "Acme", goal: "Robots for warehouses." });
  const ceo = (await loadCompanyState(store, c.id)).ceo;
  if (run.wallSeconds !== undefined)
    await setBudget(store, { companyId: c.id }, { runWallSeconds: run.wallSeconds });
  const shown: AgentEvent[] = [];
  const options: WakeOptions = {
    store,
    agentId: ceo.id,
    trigger: "start_team_building",
    env: {},
    script: () => ({ content: [{ type: "text", text: "Nothing to do yet." }] }),
    onEvent: (e) => shown.push(e),
    ...extra,
  };
  const plan = await planWake(options);
  const { ctx } = await beginRun(options, plan, (await claimWake(plan, options, false))!);
  try {
    await runSession(ctx, run.signal);
  } finally {
    await settleRun(ctx);
    ctx.claim.lease?.stop();
  }
  return { ctx, shown };
}

describe("a wake's run", () => {
  it("sends the cue and records the session's events through to one terminal", async () => {
    const { ctx, shown } = await runOnce({});
    const stored = (await store.listRunEvents(ctx.run.id)).map((e) => e.type);
    expect(stored).toEqual(shown.map((e) => e.type));
    expect(stored.filter((t) => t === "terminal")).toHaveLength(1);
    expect(ctx.record.terminal).toBe("done");
    expect(ctx.record.closing).toEqual(["Nothing to do yet."]);
    expect((await store.getRun(ctx.run.id))?.usage.input).toBeGreaterThan(0);
  });

  it("is cancelled with the abort's reason when aborted before its first call", async () => {
    const abort = new AbortController();
    abort.abort("cancelled by the operator");
    const { ctx } = await runOnce({}, { signal: abort.signal });
    expect(ctx.record.terminal).toBe("cancelled");
    expect(ctx.record.failure).toContain("cancelled by the operator");
    expect(await store.getRun(ctx.run.id)).toMatchObject({ status: "cancelled" });
  });

  it("is stopped at its wall-time cap while a model call is held, failed with the cap named", async () => {
    // The first call stalls (as an endpoint that does not answer) for longer than the cap.
    const wrapStreamFn =
      (inner: StreamFn): StreamFn =>
      async (...args) => {
        await new Promise((resolve) => setTimeout(resolve, 3_000));
        return inner(...args);
      };
    const { ctx } = await runOnce({ wrapStreamFn }, { wallSeconds: 1 });
    expect(ctx.record.terminal).toBe("failed");
    expect(ctx.budget.stop?.reason).toBe("run_cap");
    expect(ctx.record.failure).toMatch(/run_cap: the run reached its cap of 1 s of wall time/);
  }, 20_000);
});
