// Tool-call idempotency (MC-10 across machines): a tool call's result is recorded under its
// (run, tool-call id) in the transaction of its side effect; the key admits one record, so of
// several executions of one call (a retried run, a redelivered call, on any machine) one writes.
import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { ConflictError, StoreError } from "../errors.js";
import type { NewToolCall } from "../types.js";
import { agent, run, seed, type GetStore } from "./fixtures.js";

const call = (over: Partial<NewToolCall> = {}): NewToolCall => ({
  runId: "r1",
  toolCallId: "call_1",
  tool: "hire_agent",
  inputHash: "h1",
  result: { agentId: "a1", name: "CTO", nested: { n: 2.5, list: [1, "x", null] } },
  ...over,
});

export function toolCallContract(store: GetStore): void {
  describe("tool calls", () => {
    it("records a call's result under (run, tool-call id) and reads it back exactly", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      expect(await store().getToolCall("r1", "call_1")).toBeUndefined();
      const written = await store().insertToolCall(call());
      expect(written).toEqual({ ...call(), createdAt: expect.any(String) });
      expect(await store().getToolCall("r1", "call_1")).toEqual(written);
    });

    it("refuses a second record of the same call, keeping the first; other runs and ids are other calls", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      const first = await store().insertToolCall(call());
      await expect(store().insertToolCall(call({ result: { agentId: "other" } }))).rejects.toBeInstanceOf(
        ConflictError,
      );
      expect(await store().getToolCall("r1", "call_1")).toEqual(first);
      await store().insertToolCall(call({ runId: "r2" }));
      await store().insertToolCall(call({ toolCallId: "call_2" }));
      expect((await store().counts())["tool_calls"]).toBe(3);
    });

    it("refuses a call of a run that does not exist, writing nothing", async () => {
      await seed(store());
      const error = await store()
        .insertToolCall(call({ runId: "nope" }))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreError);
      expect(error).not.toBeInstanceOf(ConflictError);
      expect((await store().counts())["tool_calls"]).toBe(0);
    });

    it("rolls the record back with its transaction's side effect", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await expect(
        store().transaction(async (tx) => {
          await tx.insertAgent(agent("a1"));
          await tx.insertToolCall(call());
          throw new Error("the hire failed after all");
        }),
      ).rejects.toThrow("the hire failed after all");
      expect(await store().getToolCall("r1", "call_1")).toBeUndefined();
      expect(await store().getAgent("a1")).toBeUndefined();
    });

    it("lets one of several concurrent executions of a call write; the others get its result", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      // What a tool handler does: look the call up, else make the side effect and record it, in one
      // transaction; a conflict on the key means another execution won, whose record is the answer.
      const execute = (i: number): Promise<unknown> =>
        store()
          .transaction(async (tx) => {
            const done = await tx.getToolCall("r1", "call_1");
            if (done) return done.result;
            await sleep(Math.random() * 5);
            await tx.insertAgent(agent(`a${i}`));
            return (await tx.insertToolCall(call({ result: { agentId: `a${i}` } }))).result;
          })
          .catch(async (error: unknown) => {
            if (!(error instanceof ConflictError)) throw error;
            return (await store().getToolCall("r1", "call_1"))?.result;
          });
      const results = await Promise.all(Array.from({ length: 6 }, (_, i) => execute(i)));
      const winner = (await store().getToolCall("r1", "call_1"))?.result as { agentId: string };
      expect(results).toEqual(Array.from({ length: 6 }, () => winner));
      const hired = (await store().listAgents("co1")).filter((a) => !a.isCeo);
      expect(hired.map((a) => a.id)).toEqual([winner.agentId]);
    });
  });
}
