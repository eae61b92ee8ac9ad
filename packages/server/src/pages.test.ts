// Every list route answers a page: `{ items, nextCursor }`, at most `limit` items in the list's order,
// the next page read by passing nextCursor as `after`; a limit out of range or a cursor this list
// never answered is a 400 that says what is allowed, and reads nothing further.
import { describe, expect, it } from "vitest";
import { apiCompany, testApp } from "./testing/harness.js";

/** Every page of a list route, `limit` at a time. */
async function pages(app: Awaited<ReturnType<typeof testApp>>, path: string, limit: number) {
  const out: { id: string }[][] = [];
  let after: string | null = null;
  do {
    const sep = path.includes("?") ? "&" : "?";
    const r = await app.request(
      "GET",
      `${path}${sep}limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ""}`,
    );
    expect(r.status).toBe(200);
    expect(r.body.items.length).toBeLessThanOrEqual(limit);
    out.push(r.body.items);
    after = r.body.nextCursor;
  } while (after !== null);
  return out;
}

describe("list pages over HTTP", () => {
  it("pages a company's tasks oldest first; the pages, cursor after cursor, are the whole list", async () => {
    const app = await testApp();
    try {
      const company = await apiCompany(app);
      for (let i = 0; i < 7; i++)
        await app.store.insertTask({
          id: `task_${i}`,
          companyId: company.id,
          title: `Task ${i}`,
          description: "",
          status: i === 3 ? "done" : "todo",
          assigneeAgentId: company.ceoAgentId,
          creatorAgentId: company.ceoAgentId,
          parentTaskId: null,
          strategyId: null,
          deliverable: null,
          blockers: [],
          via: "tool",
        });
      const whole = await app.request("GET", `/api/companies/${company.id}/tasks`);
      expect(whole.body.nextCursor).toBeNull();
      expect(whole.body.items).toHaveLength(7);
      const paged = await pages(app, `/api/companies/${company.id}/tasks`, 3);
      expect(paged.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(paged.flat()).toEqual(whole.body.items);
      // A filter applies before the page.
      const todo = await pages(app, `/api/companies/${company.id}/tasks?status=todo`, 2);
      expect(todo.flat().map((t) => t.id)).toEqual([
        "task_0",
        "task_1",
        "task_2",
        "task_4",
        "task_5",
        "task_6",
      ]);
    } finally {
      await app.close();
    }
  });

  it("pages every list route the same way", async () => {
    const app = await testApp();
    try {
      const first = await apiCompany(app);
      await apiCompany(app, { name: "Second Co" });
      for (const path of [
        "/api/companies",
        `/api/companies/${first.id}/agents`,
        `/api/companies/${first.id}/connectors`,
        `/api/companies/${first.id}/approvals`,
        `/api/companies/${first.id}/runs`,
        `/api/companies/${first.id}/wake-requests`,
        `/api/companies/${first.id}/schedules`,
        `/api/agents/${first.ceoAgentId}/keys`,
      ]) {
        const whole = await app.request("GET", path);
        expect(whole.status, path).toBe(200);
        expect(Object.keys(whole.body).sort(), path).toEqual(["items", "nextCursor"]);
        expect((await pages(app, path, 1)).flat(), path).toEqual(whole.body.items);
      }
      expect((await pages(app, "/api/companies", 1)).map((p) => p.length)).toEqual([1, 1]);
    } finally {
      await app.close();
    }
  });

  it("refuses a limit out of range and a cursor it never answered, saying what is allowed", async () => {
    const app = await testApp();
    try {
      const company = await apiCompany(app);
      const path = `/api/companies/${company.id}/agents`;
      for (const limit of ["0", "501", "-1", "ten", "1.5"]) {
        const r = await app.request("GET", `${path}?limit=${limit}`);
        expect(r.status, limit).toBe(400);
        expect(r.body.error.message).toMatch(/limit must be a whole number from 1 to 500/);
        expect(r.body.error.fields).toEqual({ limit: "1..500" });
      }
      expect((await app.request("GET", `${path}?limit=500`)).status).toBe(200);
      for (const after of ["nonsense", Buffer.from('["only one"]').toString("base64url")]) {
        const r = await app.request("GET", `${path}?after=${after}`);
        expect(r.status).toBe(400);
        expect(r.body.error.message).toMatch(/after must be the nextCursor of a previous page/);
      }
    } finally {
      await app.close();
    }
  });
});
