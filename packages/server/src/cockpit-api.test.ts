// The routes the dashboard's cockpit added: the thread with the CEO (operator writes,
// the company reads; a bad message is refused naming the field and writes nothing; an agent's key
// cannot write as the operator; messages page with after/limit) and stopping a run (a run that has
// ended, or one this server does not run, is refused with nothing changed).
import { describe, expect, it } from "vitest";
import { apiCompany, apiKey, testApp } from "./testing/harness.js";

describe("the thread with the CEO over HTTP", () => {
  it("the operator writes, which wakes the CEO; a bad body or an agent's key writes nothing", async () => {
    const app = await testApp();
    try {
      const company = await apiCompany(app);
      const path = `/api/companies/${company.id}/messages`;
      const posted = await app.request("POST", path, { json: { text: "How is it going?" } });
      expect(posted.status).toBe(201);
      expect(posted.body).toMatchObject({
        message: { from: "operator", fromName: "the operator", text: "How is it going?", runId: null },
        wakes: [company.ceoAgentId],
      });
      const requests = await app.store.listWakeRequests({ agentId: company.ceoAgentId });
      expect(requests.map((r) => r.trigger)).toContain("operator_message");

      for (const body of [{ text: "" }, { text: 3 }, {}, { text: "hi", mode: "operating" }]) {
        const refused = await app.request("POST", path, { json: body });
        expect(refused.status, JSON.stringify(body)).toBe(400);
        expect(refused.body.error.message).not.toContain("\n");
      }
      const key = await apiKey(app, company.ceoAgentId);
      expect(
        (await app.request("POST", path, { token: key, json: { text: "As the operator." } })).status,
      ).toBe(403);
      // The CEO's key reads the thread: the message as posted, then the CEO's answer to it.
      await app.cadre.wakes.idle();
      const read = await app.request("GET", path, { token: key });
      expect(read.status).toBe(200);
      type Item = { from: string; text: string };
      expect(read.body.items.map((m: Item) => [m.from, m.text.split("\n")[0]])).toEqual([
        ["operator", "How is it going?"],
        [company.ceoAgentId, "You wrote: “How is it going?”"],
      ]);
      expect(read.body.nextCursor).toBeNull();

      await app.request("POST", path, { json: { text: "Second." } });
      await app.cadre.wakes.idle();
      const first = await app.request("GET", `${path}?limit=1`);
      expect(first.body.items.map((m: Item) => m.text)).toEqual(["How is it going?"]);
      const next = await app.request("GET", `${path}?after=${first.body.nextCursor}`);
      expect(next.body.items.map((m: Item) => [m.from, m.text.split("\n")[0]])).toEqual([
        [company.ceoAgentId, "You wrote: “How is it going?”"],
        ["operator", "Second."],
        [company.ceoAgentId, "You wrote: “Second.”"],
      ]);
      expect((await app.request("GET", `${path}?limit=0`)).status).toBe(400);
    } finally {
      await app.close();
    }
  });
});

describe("a named operator in the thread", () => {
  it("their message carries their name; the unnamed operator's says the operator", async () => {
    const app = await testApp();
    try {
      const company = await apiCompany(app);
      const made = await app.request("POST", "/api/operators", { json: { name: "alice", role: "operator" } });
      expect(made.status).toBe(201);
      const path = `/api/companies/${company.id}/messages`;
      const posted = await app.request("POST", path, { token: made.body.token, json: { text: "Hello." } });
      expect(posted.status).toBe(201);
      expect(posted.body.message).toMatchObject({ from: "operator", fromName: "alice" });
      await app.request("POST", path, { json: { text: "Root here." } });
      const read = await app.request("GET", path);
      // The CEO may have answered in between: the operators' messages, in order.
      const operators = read.body.items.filter((m: { from: string }) => m.from === "operator");
      expect(operators.map((m: { fromName: string }) => m.fromName)).toEqual(["alice", "the operator"]);
    } finally {
      await app.close();
    }
  });
});

describe("stopping a run over HTTP", () => {
  it("refuses a run that has ended, and an unknown one, changing nothing", async () => {
    const app = await testApp();
    try {
      const company = await apiCompany(app);
      const woken = await app.request("POST", `/api/agents/${company.ceoAgentId}/wake`, { json: {} });
      expect(woken.status).toBe(202);
      const runId = woken.body.runId as string;
      await app.cadre.wakes.idle();
      const ended = await app.store.getRun(runId);
      expect(ended?.status).toBe("done");
      const refused = await app.request("POST", `/api/runs/${runId}/stop`);
      expect(refused.status).toBe(409);
      expect(refused.body.error.message).toBe(`run ${runId} is not running (it is done): nothing to stop`);
      expect((await app.store.getRun(runId))?.status).toBe("done");
      expect((await app.request("POST", "/api/runs/run_nope/stop")).status).toBe(404);
      const key = await apiKey(app, company.ceoAgentId);
      expect((await app.request("POST", `/api/runs/${runId}/stop`, { token: key })).status).toBe(403);
    } finally {
      await app.close();
    }
  });
});
