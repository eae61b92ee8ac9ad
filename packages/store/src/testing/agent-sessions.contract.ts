// Agents' sessions (migration 008): one row per agent, written whole and read back exactly, the
// agent's native session to continue or the handoff a fresh one starts from.
import { describe, expect, it } from "vitest";
import { StoreError } from "../errors.js";
import type { NewAgentSession } from "../types.js";
import { agent, run, seed, setClock, type GetStore } from "./fixtures.js";

const session = (over: Partial<NewAgentSession> = {}): NewAgentSession => ({
  agentId: "ceo",
  companyId: "co1",
  harness: "pi",
  connectorId: "offline",
  model: "offline-1",
  sessionId: "01a2-session",
  sessionFile: "/data/agents/ceo/sessions/2026_01a2-session.jsonl",
  reserveTokens: 12_800,
  tokensInWindow: 4_321,
  rolledOver: false,
  bootstrap: null,
  digest: [
    { kind: "task", text: "Build the team — 東京 office" },
    { kind: "decision", text: 'hire_agent succeeded: {"name":"CTO"}' },
  ],
  prompt: { systemPrompt: "You are the CEO.", segments: [{ id: "harness-preset", hash: "ab12" }] },
  vendorTotals: null,
  runningRunId: null,
  lastRunId: "r1",
  previousSessionId: null,
  ...over,
});

export function agentSessionContract(store: GetStore): void {
  describe("agent sessions", () => {
    it("writes an agent's session and reads it back exactly, JSON, booleans and counters included", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      expect(await store().getAgentSession("ceo")).toBeUndefined();
      const written = await store().putAgentSession(session());
      expect(written).toEqual({
        ...session(),
        createdAt: expect.any(String),
        lastUsedAt: expect.any(String),
      });
      expect(await store().getAgentSession("ceo")).toEqual(written);
      expect(await store().listAgentSessions("co1")).toEqual([written]);
    });

    it("replaces the row on a second write: the new session wins, createdAt stays, lastUsedAt moves", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      setClock("2030-01-01T00:00:00.000Z");
      const first = await store().putAgentSession(session());
      setClock("2030-01-02T00:00:00.000Z");
      const bootstrap = { handoff: "# Handoff\n…", items: [], reason: "MC-9: latched" };
      const second = await store().putAgentSession(
        session({
          sessionId: null,
          sessionFile: null,
          rolledOver: true,
          bootstrap,
          previousSessionId: "01a2-session",
          runningRunId: "r2",
          vendorTotals: { input: 5, output: 1, cacheRead: 3, cacheWrite: 0 },
        }),
      );
      expect(second.createdAt).toBe(first.createdAt);
      expect(second.lastUsedAt).toBe("2030-01-02T00:00:00.000Z");
      expect(await store().getAgentSession("ceo")).toMatchObject({
        sessionId: null,
        sessionFile: null,
        rolledOver: true,
        bootstrap,
        previousSessionId: "01a2-session",
        runningRunId: "r2",
        vendorTotals: { input: 5, output: 1, cacheRead: 3, cacheWrite: 0 },
      });
      expect((await store().counts())["agent_sessions"]).toBe(1);
    });

    it("keeps one row per agent, lists a company's only, and forgets one on delete", async () => {
      await seed(store());
      await seed(store(), "co2");
      await store().insertAgent(agent("cto"));
      await store().putAgentSession(session({ lastRunId: null }));
      await store().putAgentSession(session({ agentId: "cto", harness: "codex", lastRunId: null }));
      await store().putAgentSession(
        session({ agentId: "ceo-co2", companyId: "co2", harness: "claude-code", lastRunId: null }),
      );
      expect((await store().listAgentSessions("co1")).map((s) => [s.agentId, s.harness])).toEqual([
        ["ceo", "pi"],
        ["cto", "codex"],
      ]);
      expect(await store().deleteAgentSession("cto")).toBe(true);
      expect(await store().deleteAgentSession("cto")).toBe(false);
      expect(await store().getAgentSession("cto")).toBeUndefined();
      expect((await store().listAgentSessions("co1")).map((s) => s.agentId)).toEqual(["ceo"]);
    });

    it("refuses a session of an agent or a run that does not exist, writing nothing", async () => {
      await seed(store());
      await expect(store().putAgentSession(session({ agentId: "nobody" }))).rejects.toBeInstanceOf(
        StoreError,
      );
      await expect(store().putAgentSession(session({ runningRunId: "no-run" }))).rejects.toBeInstanceOf(
        StoreError,
      );
      expect((await store().counts())["agent_sessions"]).toBe(0);
    });

    it("rolls back with its transaction: a session row and the run it names commit together or not at all", async () => {
      await seed(store());
      await expect(
        store().transaction(async (tx) => {
          await tx.insertRun(run("r9"));
          await tx.putAgentSession(session({ runningRunId: "r9", lastRunId: null }));
          throw new Error("the wake could not start after all");
        }),
      ).rejects.toThrow("the wake could not start after all");
      expect(await store().getAgentSession("ceo")).toBeUndefined();
      expect(await store().getRun("r9")).toBeUndefined();
    });
  });
}
