// Pages of every list: rows in the list's order after the last row of the previous page, up to a
// limit, with the filters applied — the pages together are the whole list, each row once, even
// when rows are written between two pages and when many rows share a timestamp.
import { describe, expect, it } from "vitest";
import type { NewTask, Page } from "../types.js";
import { agent, approval, company, run, seed, setClock, type GetStore } from "./fixtures.js";

const task = (id: string, over: Partial<NewTask> = {}): NewTask => ({
  id,
  companyId: "co1",
  title: `Task ${id}`,
  description: "Do it.",
  status: "todo",
  assigneeAgentId: "ceo",
  creatorAgentId: "ceo",
  parentTaskId: null,
  strategyId: null,
  deliverable: null,
  blockers: [],
  via: "tool",
  ...over,
});

/** Every page of a list, read `limit` at a time; the position is the last row's (sort value, id). */
async function allPages<T extends { id: string }>(
  read: (page: Page) => Promise<T[]>,
  at: (row: T) => string,
  limit: number,
): Promise<T[][]> {
  const pages: T[][] = [];
  let after: Page["after"];
  for (;;) {
    const page = await read(after ? { after, limit } : { limit });
    if (page.length === 0) return pages;
    expect(page.length).toBeLessThanOrEqual(limit);
    pages.push(page);
    const last = page[page.length - 1] as T;
    after = { at: at(last), id: last.id };
  }
}

export function pageContract(store: GetStore): void {
  describe("pages of lists", () => {
    it("pages tasks in creation order, ties broken by id, with their blockers, and the pages make the list", async () => {
      await seed(store());
      // Many rows in one millisecond: the order must still be total.
      setClock("2030-01-01T00:00:00.000Z");
      for (const id of ["t5", "t1", "t3"]) await store().insertTask(task(id));
      setClock("2030-01-01T00:00:01.000Z");
      for (const id of ["t0", "t4", "t2", "t6"])
        await store().insertTask(task(id, { blockers: id === "t2" ? ["t5", "t1"] : [] }));
      const whole = await store().listTasks("co1");
      expect(whole.map((t) => t.id)).toEqual(["t1", "t3", "t5", "t0", "t2", "t4", "t6"]);
      const pages = await allPages(
        (page) => store().listTasks("co1", { page }),
        (t) => t.createdAt,
        3,
      );
      expect(pages.map((p) => p.length)).toEqual([3, 3, 1]);
      expect(pages.flat()).toEqual(whole);
      expect(pages.flat().find((t) => t.id === "t2")?.blockers).toEqual(["t5", "t1"]);
    });

    it("applies the filter before the page: a page of open tasks of one assignee holds only those", async () => {
      await seed(store());
      await store().insertAgent(agent("a1"));
      for (let i = 0; i < 9; i++)
        await store().insertTask(
          task(`t${i}`, { assigneeAgentId: i % 3 === 0 ? "a1" : "ceo", status: i === 6 ? "done" : "todo" }),
        );
      const pages = await allPages(
        (page) => store().listTasks("co1", { assigneeAgentId: "a1", statuses: ["todo"], page }),
        (t) => t.createdAt,
        1,
      );
      expect(pages.flat().map((t) => t.id)).toEqual(["t0", "t3"]);
    });

    it("neither repeats nor drops a row when rows are written between two pages", async () => {
      await seed(store());
      setClock("2030-01-01T00:00:00.000Z");
      for (let i = 0; i < 4; i++) await store().insertTask(task(`t${i}`));
      const first = await store().listTasks("co1", { page: { limit: 2 } });
      setClock("2030-01-01T00:00:00.001Z");
      await store().insertTask(task("late"));
      const last = first[first.length - 1]!;
      const rest = await store().listTasks("co1", { page: { after: { at: last.createdAt, id: last.id } } });
      expect([...first, ...rest].map((t) => t.id)).toEqual(["t0", "t1", "t2", "t3", "late"]);
    });

    it("pages companies, connectors, agents (with a status), approvals, runs, keys, wake requests and schedules", async () => {
      await seed(store());
      await store().insertCompany(company("co2"));
      setClock("2030-01-01T00:00:00.000Z");
      for (const id of ["b", "a", "c"])
        await store().insertAgent(agent(id, { status: id === "c" ? "terminated" : "active" }));
      for (const id of ["p2", "p1", "p3"]) await store().insertApproval(approval(id), "ceo");
      for (const id of ["r2", "r1", "r3"]) await store().insertRun(run(id));
      for (const id of ["w2", "w1", "w3"])
        await store().insertWakeRequest({
          id,
          companyId: "co1",
          agentId: "a",
          trigger: "routine",
          taskId: null,
          causedBy: "ceo",
          cause: "a routine wake",
        });
      for (const [id, agentId] of [
        ["s2", "a"],
        ["s1", "b"],
      ] as const)
        await store().putSchedule({
          id,
          companyId: "co1",
          agentId,
          everySeconds: 60,
          cron: null,
          timezone: "UTC",
          catchUp: "one",
          nextDueAt: "2030-01-02T00:00:00.000Z",
        });
      for (const id of ["k2", "k1"])
        await store().insertApiToken({
          id,
          agentId: "a",
          companyId: "co1",
          hash: `hash-${id}`,
          label: id,
          runId: null,
        });
      const ids = async <T extends { id: string }>(read: (p: Page) => Promise<T[]>, at: (r: T) => string) =>
        (await allPages(read, at, 1)).flat().map((r) => r.id);

      expect(
        await ids(
          (p) => store().listCompanies(p),
          (c) => c.createdAt,
        ),
      ).toEqual((await store().listCompanies()).map((c) => c.id));
      expect(
        await ids(
          (p) => store().listAgents("co1", { status: "active", page: p }),
          (a) => a.createdAt,
        ),
      ).toEqual(["ceo", "a", "b"]);
      expect(
        await ids(
          (p) => store().listApprovals("co1", { page: p }),
          (a) => a.createdAt,
        ),
      ).toEqual(["p1", "p2", "p3"]);
      expect(
        await ids(
          (p) => store().listRuns({ companyId: "co1", page: p }),
          (r) => r.startedAt,
        ),
      ).toEqual(["r1", "r2", "r3"]);
      expect(
        await ids(
          (p) => store().listWakeRequests({ companyId: "co1", page: p }),
          (w) => w.createdAt,
        ),
      ).toEqual(["w1", "w2", "w3"]);
      expect(
        await ids(
          (p) => store().listSchedules("co1", p),
          (s) => s.nextDueAt,
        ),
      ).toEqual(["s1", "s2"]);
      expect(
        await ids(
          (p) => store().listApiTokens("a", p),
          (k) => k.createdAt,
        ),
      ).toEqual(["k1", "k2"]);
      expect(
        await ids(
          (p) => store().listConnectors("co1", p),
          (c) => c.createdAt,
        ),
      ).toEqual(["offline"]);
    });
  });
}
