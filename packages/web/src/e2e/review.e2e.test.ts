// Deliverables with evidence and done means accepted, from the dashboard, in Debian's
// Chromium against a real `cadre serve`. A lead handed in a plan and a chart from its workspace;
// the CEO asked for changes as often as the company allows (one round) and then once more, so the
// task waits in the operator's inbox as a decision. The operator opens the files on the task's
// panel (markdown rendered sanitised: the HTML in it runs nothing; the chart downloaded byte for
// byte), is refused when asking for changes without reasons (the API's message, nothing changed),
// and accepts it; on a task the operator created, a request for changes sends it back.
import { mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  createCompany,
  createTask,
  decideApproval,
  fileApproval,
  hireAgent,
  loadCompanyState,
  reviewTask,
  updateTask,
  workspaceOf,
} from "@cadre/company";
import { openStore, type Store } from "@cadre/store";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchChromium, screenshot } from "./support/browser.js";
import { type Served, startCadreServe, apiCall } from "./support/serve.js";

vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 50 } } });

let served: Served;
let browser: Browser;
let page: Page;
const co = { id: "", escalated: "", mine: "" };
const CHART = Buffer.from([0, 255, 137, 80, 78, 71, 13, 10]);
const PLAN = [
  "# Pilot plan v2",
  "",
  "Three warehouses, starting with **Lyon**.",
  "",
  '<img src="x" onerror="window.__pwned = 1">',
  "<script>window.__pwned = 2</script>",
  "",
].join("\n");

const api = <T = any>(method: string, path: string, body?: unknown) => apiCall<T>(served, method, path, body);

function must<T>(r: { ok: true; value: T } | { ok: false; message: string }): T {
  if (!r.ok) throw new Error(r.message);
  return r.value;
}

async function seedCompany(store: Store, dataDir: string) {
  const company = await createCompany(store, {
    name: "Review Co",
    goal: "Robots.",
    settings: { reviewRounds: 1 },
  });
  co.id = company.id;
  const ceo = (await loadCompanyState(store, company.id)).ceo.id;
  const operator = { companyId: company.id, agentId: null, via: "http" as const, runId: null };
  const asCeo = { ...operator, agentId: ceo, via: "tool" as const };
  const hired = must(
    await hireAgent(store, operator, {
      name: "CTO",
      role: "Head of engineering",
      description: "Leads engineering.",
      connectorId: "offline",
      model: "offline-scripted-1",
      department: "engineering",
    }),
  );
  if (!("agentId" in hired)) throw new Error("the hire waits for approval");
  const cto = hired.agentId;
  const filed = must(
    await fileApproval(store, asCeo, { type: "approve_ceo_strategy", title: "Plan", payload: "# Plan" }),
  );
  await decideApproval(store, filed.approvalId, "approve", null);
  const workspace = workspaceOf({ dataDir, companyId: company.id, agentId: cto });
  await mkdir(join(workspace, "out"), { recursive: true });
  const asCto = { ...operator, agentId: cto, via: "tool" as const, workspace };
  const handIn = async (taskId: string) =>
    must(
      await updateTask(store, asCto, {
        taskId,
        status: "done",
        deliverable: "The plan and the chart are attached.",
        files: ["plan.md", "out/chart.bin"],
      }),
    );
  co.escalated = must(
    await createTask(store, asCeo, { title: "Write the pilot plan", assignee: "CTO" }),
  ).taskId;
  await writeFile(join(workspace, "plan.md"), "# Pilot plan v1\n");
  await writeFile(join(workspace, "out", "chart.bin"), CHART);
  await handIn(co.escalated);
  must(
    await reviewTask(store, asCeo, {
      taskId: co.escalated,
      decision: "request_changes",
      reasons: "Name a city.",
    }),
  );
  await writeFile(join(workspace, "plan.md"), PLAN);
  await handIn(co.escalated);
  const past = must(
    await reviewTask(store, asCeo, { taskId: co.escalated, decision: "request_changes", reasons: "More." }),
  );
  if (!past.escalated) throw new Error("the review rounds did not run out");
  // Edited after the hand-in: the dashboard shows what was handed in, not this.
  await writeFile(join(workspace, "plan.md"), "# Pilot plan, rewritten later\n");
  co.mine = must(await createTask(store, operator, { title: "Price the pilot", assignee: "CTO" })).taskId;
  must(await updateTask(store, asCto, { taskId: co.mine, status: "done", deliverable: "10k per site." }));
  // Nobody runs in this test: the wakes these changes asked for are dropped.
  for (const r of await store.listWakeRequests({ status: "pending" }))
    await store.settleWakeRequest(r.id, { status: "dropped", note: "test" });
}

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-web-review-"));
  const store = await openStore({ path: join(dataDir, "cadre.db") });
  try {
    await seedCompany(store, dataDir);
  } finally {
    await store.close();
  }
  [served, browser] = await Promise.all([startCadreServe({ dataDir }), launchChromium()]);
  const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, acceptDownloads: true });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(served.signInLink);
  await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

const card = (title: string) => page.getByTestId("task-card").filter({ hasText: title });

describe("a task whose review rounds ran out, decided by the operator on the dashboard", () => {
  it("waits in the inbox as the operator's decision, beside a task the operator created", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}/approvals`);
    const inbox = page.getByTestId("review-inbox");
    const waiting = inbox.getByTestId("waiting-review");
    await expect.poll(() => waiting.count()).toBe(2);
    const escalated = waiting.filter({ hasText: "Write the pilot plan" });
    expect(await escalated.textContent()).toContain("Review rounds ran out (1 of 1 requests for changes)");
    expect(await waiting.filter({ hasText: "Price the pilot" }).textContent()).toContain("You created it");
    await screenshot(page, "review-inbox");
  });

  it("opens the files handed in: the markdown rendered with its HTML inert, the chart downloaded as kept", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}/tasks`);
    const task = card("Write the pilot plan");
    await task.getByText("Details", { exact: true }).click();
    const files = task.getByTestId("task-file");
    await expect.poll(() => files.count()).toBe(4);
    await task.getByRole("button", { name: "Open plan.md" }).last().click();
    const view = task.getByTestId("task-file-view");
    await expect.poll(() => view.getByRole("heading", { level: 1 }).textContent()).toBe("Pilot plan v2");
    expect(await view.locator("img, script").count()).toBe(0);
    expect(await view.textContent()).toContain('<img src="x" onerror=');
    expect(await page.evaluate(() => (window as { __pwned?: number }).__pwned)).toBeUndefined();
    const [download] = await Promise.all([
      page.waitForEvent("download"),
      task.getByRole("button", { name: "Download out/chart.bin" }).last().click(),
    ]);
    expect(download.suggestedFilename()).toBe("chart.bin");
    expect([...(await readFile((await download.path())!))]).toEqual([...CHART]);
  });

  it("refuses a request for changes without reasons with the API's message, then accepts", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}/approvals`);
    const form = page.getByRole("form", { name: "Review Write the pilot plan" });
    await form.getByRole("button", { name: "Request changes" }).click();
    const refused = await api<{ error: { message: string } }>("POST", `/api/tasks/${co.escalated}/review`, {
      decision: "request_changes",
      reasons: "",
    });
    expect(refused.status).toBe(400);
    await expect.poll(() => form.getByTestId("action-error").textContent()).toBe(refused.body.error.message);
    expect(refused.body.error.message).toMatch(/reasons/);
    expect((await api("GET", `/api/tasks/${co.escalated}`)).body.status).toBe("in_review");

    await form.getByRole("button", { name: "Accept" }).click();
    await expect.poll(async () => (await api("GET", `/api/tasks/${co.escalated}`)).body.status).toBe("done");
    await expect.poll(() => page.getByTestId("waiting-review").count()).toBe(1);
  });

  it("sends a task back with the reasons from its card on the Tasks board", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}/tasks`);
    const form = card("Price the pilot").getByRole("form", { name: "Review Price the pilot" });
    await form.getByLabel("What is to change, and why").fill("Split it per site and per month.");
    await form.getByRole("button", { name: "Request changes" }).click();
    await expect
      .poll(async () => (await api("GET", `/api/tasks/${co.mine}`)).body.status)
      .toBe("in_progress");
    const detail = (await api("GET", `/api/tasks/${co.mine}`)).body;
    expect(detail.comments.map((c: { body: string }) => c.body)).toContain(
      "Split it per site and per month.",
    );
  });
});
