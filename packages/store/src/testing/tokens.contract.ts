// Agent-scoped API tokens: stored by hash, found by hash, never read back, revocable.
import { describe, expect, it } from "vitest";
import { ConflictError, StoreError } from "../errors.js";
import { agent, run, seed, setClock, type GetStore } from "./fixtures.js";
import type { NewApiToken } from "../types.js";

const token = (id: string, over: Partial<NewApiToken> = {}): NewApiToken => ({
  id,
  companyId: "co1",
  agentId: "ceo",
  runId: null,
  label: `key ${id}`,
  hash: `hash-of-${id}`,
  ...over,
});

export function tokenContract(store: GetStore): void {
  describe("API tokens", () => {
    it("round-trips without ever returning the hash, and finds a token by its hash", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      setClock("2025-08-09T10:11:12.131Z");
      const row = await store().insertApiToken(token("t1", { runId: "r1" }));
      const expected = {
        id: "t1",
        companyId: "co1",
        agentId: "ceo",
        runId: "r1",
        label: "key t1",
        createdAt: "2025-08-09T10:11:12.131Z",
        revokedAt: null,
      };
      expect(row).toEqual(expected);
      expect(await store().findApiToken("hash-of-t1")).toEqual(expected);
      expect(JSON.stringify(await store().listApiTokens("ceo"))).not.toContain("hash-of");
      expect(await store().findApiToken("hash-of-nothing")).toBeUndefined();
    });

    it("finds a token with its agent's status (the request path's one read), revoked or not", async () => {
      await seed(store());
      await store().insertAgent(agent("cto"));
      setClock("2025-08-09T10:11:12.131Z");
      const row = await store().insertApiToken(token("t1"));
      await store().insertApiToken(token("t2", { agentId: "cto" }));
      expect(await store().findApiTokenWithAgent("hash-of-t1")).toEqual({ ...row, agentStatus: "active" });
      await store().setAgentStatus("cto", "terminated");
      expect((await store().findApiTokenWithAgent("hash-of-t2"))?.agentStatus).toBe("terminated");
      setClock("2025-08-10T00:00:00.000Z");
      await store().revokeApiTokens({ id: "t1" });
      expect(await store().findApiTokenWithAgent("hash-of-t1")).toMatchObject({
        id: "t1",
        revokedAt: "2025-08-10T00:00:00.000Z",
        agentStatus: "active",
      });
      expect(await store().findApiTokenWithAgent("hash-of-nothing")).toBeUndefined();
    });

    it("refuses a repeated id or hash, and a token for an agent that does not exist", async () => {
      await seed(store());
      await store().insertApiToken(token("t1"));
      await expect(store().insertApiToken(token("t1", { hash: "other" }))).rejects.toBeInstanceOf(
        ConflictError,
      );
      await expect(store().insertApiToken(token("t2", { hash: "hash-of-t1" }))).rejects.toBeInstanceOf(
        ConflictError,
      );
      await expect(store().insertApiToken(token("t3", { agentId: "ghost" }))).rejects.toBeInstanceOf(
        StoreError,
      );
      expect((await store().listApiTokens("ceo")).map((t) => t.id)).toEqual(["t1"]);
    });

    it("revokes one token by id or all of an agent's, counting only live ones", async () => {
      await seed(store());
      await store().insertAgent(agent("cto"));
      setClock("2025-01-01T00:00:00.000Z");
      await store().insertApiToken(token("b"));
      await store().insertApiToken(token("a"));
      await store().insertApiToken(token("c", { agentId: "cto" }));
      expect((await store().listApiTokens("ceo")).map((t) => t.id)).toEqual(["a", "b"]);
      setClock("2025-01-02T00:00:00.000Z");
      expect(await store().revokeApiTokens({ id: "a" })).toBe(1);
      expect(await store().revokeApiTokens({ id: "a" })).toBe(0);
      expect((await store().findApiToken("hash-of-a"))?.revokedAt).toBe("2025-01-02T00:00:00.000Z");
      expect((await store().findApiToken("hash-of-b"))?.revokedAt).toBeNull();
      setClock("2025-01-03T00:00:00.000Z");
      expect(await store().revokeApiTokens({ agentId: "ceo" })).toBe(1);
      expect((await store().findApiToken("hash-of-a"))?.revokedAt).toBe("2025-01-02T00:00:00.000Z");
      expect((await store().findApiToken("hash-of-b"))?.revokedAt).toBe("2025-01-03T00:00:00.000Z");
      expect((await store().findApiToken("hash-of-c"))?.revokedAt).toBeNull();
      expect(await store().revokeApiTokens({ id: "missing" })).toBe(0);
    });

    it("revokes the live tokens minted for one run", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      await store().insertRun(run("r2"));
      await store().insertApiToken(token("t1", { runId: "r1" }));
      await store().insertApiToken(token("t2", { runId: "r1" }));
      await store().insertApiToken(token("t3", { runId: "r2" }));
      await store().insertApiToken(token("t4"));
      expect(await store().revokeApiTokens({ runId: "r1" })).toBe(2);
      expect(await store().revokeApiTokens({ runId: "r1" })).toBe(0);
      const live = (await store().listApiTokens("ceo")).filter((t) => t.revokedAt === null).map((t) => t.id);
      expect(live.sort()).toEqual(["t3", "t4"]);
    });
  });
}
