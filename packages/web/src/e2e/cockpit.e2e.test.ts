// The operator acts from the dashboard, on the object each action concerns, in Debian's Chromium
// against a real `cadre serve` whose company runs on the held stand-in model (the OpenAI wire):
// tasks (create, comment, assign, block, cancel), an agent (model move, keys, terminate), the
// budget raised and a price set on the exhausted notice, due work run, and a running run stopped.
// Each action is also tried with a bad value: the server's one-line refusal is shown where it was
// asked and the API shows nothing changed. Destructive actions ask once more, and "Keep" backs
// out. Screenshots at desktop and phone width go to packages/web/test-artifacts/.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany } from "@cadre/company";
import { loadUserModels } from "@cadre/core";
import { openStore } from "@cadre/store";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchChromium, screenshot } from "./support/browser.js";
import { declareHeldModel, HELD_MODEL, type HeldModel, startHeldModel } from "./support/held-model.js";
import { type Served, startCadreServe } from "./support/serve.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** How long a poll waits for what the server does in the background (a run's end, a re-read). */
const RUN_WAIT = { timeout: 30_000 };
// What the page shows after an action: a re-read away, on a shared machine.
vi.setConfig({ expect: { poll: { timeout: 10_000, interval: 50 } } });

let served: Served;
let held: HeldModel;
let browser: Browser;
let context: BrowserContext;
let page: Page;
const co = { id: "", ceoId: "", adaId: "", graceId: "", taskId: "" };

async function api<T = any>(
  method: string,
  path: string,
  body?: unknown,
  token = served.token,
): Promise<{ status: number; body: T }> {
  const r = await fetch(`${served.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: (await r.json()) as T };
}

const ok = async <T = any>(method: string, path: string, body?: unknown): Promise<T> => {
  const r = await api<T>(method, path, body);
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
};

/** A list route's items (`{ items, nextCursor }`); these small lists fit one page, which is checked. */
const items = async <T = any>(path: string): Promise<T[]> => {
  const page = await ok<{ items: T[]; nextCursor: string | null }>("GET", path);
  if (page.nextCursor !== null) throw new Error(`GET ${path}: more than one page`);
  return page.items;
};

/** The message the API answers a bad request with, to compare with what the page shows. */
const refusal = async (method: string, path: string, body?: unknown): Promise<string> => {
  const r = await api<{ error: { message: string } }>(method, path, body);
  expect(r.status).toBeGreaterThanOrEqual(400);
  return r.body.error.message;
};

async function hire(name: string, department: string): Promise<string> {
  const agent = await ok<{ id: string }>("POST", `/api/companies/${co.id}/agents`, {
    name,
    role: `Head of ${department}`,
    description: `Leads ${department}.`,
    connectorId: "openai-compatible",
    model: HELD_MODEL,
    department,
  });
  return agent.id;
}

beforeAll(async () => {
  held = await startHeldModel();
  // Answered at once until the stop test holds a run.
  held.release();
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-web-cockpit-"));
  await declareHeldModel(dataDir);
  await loadUserModels({ dataDir, env: {} });
  const store = await openStore({ path: join(dataDir, "cadre.db") });
  try {
    const company = await createCompany(store, {
      name: "Cockpit Co",
      goal: "Build warehouse robots.",
      connectors: [
        { kind: "openai-compatible", config: { baseUrl: held.baseUrl }, enabledModels: [HELD_MODEL] },
      ],
      ceoConnectorId: "openai-compatible",
    });
    co.id = company.id;
    co.ceoId = (await store.listAgents(company.id)).find((a) => a.isCeo)!.id;
  } finally {
    await store.close();
  }
  [served, browser] = await Promise.all([startCadreServe({ dataDir }), launchChromium()]);
  co.adaId = await hire("Ada Lovelace", "engineering");
  co.graceId = await hire("Grace Hopper", "sales");
  // A second connector that is not ready (no Anthropic key in the server's environment).
  await ok("POST", `/api/companies/${co.id}/connectors`, { id: "anthropic", kind: "anthropic" });
  // The operating company: tasks exist once a strategy is approved.
  const filed = await ok<{ id: string }>("POST", `/api/companies/${co.id}/approvals`, {
    type: "approve_ceo_strategy",
    title: "Plan",
    payload: "# Plan\n- ship the pitch",
  });
  await ok("POST", `/api/approvals/${filed.id}/approve`, {});
  context = await browser.newContext({ viewport: DESKTOP });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: served.url });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(served.signInLink);
  await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
});

afterAll(async () => {
  held?.release();
  await browser?.close();
  await served?.stop();
  await held?.close();
});

const taskCard = (title: string) => page.getByTestId("task-card").filter({ hasText: title });
const task = async () => ok<any>("GET", `/api/tasks/${co.taskId}`);

describe("acting on tasks from the Tasks view", () => {
  it("creates a task, refusing an empty title with the server's message and creating nothing", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}/tasks`);
    const form = page.getByRole("form", { name: "New task" });
    await form.getByRole("button", { name: "Create task" }).click();
    const expected = await refusal("POST", `/api/companies/${co.id}/tasks`, { title: "" });
    await expect.poll(() => form.getByTestId("action-error").textContent()).toBe(expected);
    expect(expected).toMatch(/title/);
    expect(await items(`/api/companies/${co.id}/tasks`)).toEqual([]);

    await form.getByLabel("Title").fill("Write the pitch deck");
    await form.getByLabel("Description (optional)").fill("Ten slides for the seed round.");
    await form
      .getByLabel("Assignee", { exact: true })
      .selectOption({ label: "Ada Lovelace (Head of engineering)" });
    await form.getByRole("button", { name: "Create task" }).click();
    await taskCard("Write the pitch deck").waitFor();
    const tasks = await items(`/api/companies/${co.id}/tasks`);
    expect(tasks.map((t) => [t.title, t.description, t.assigneeAgentId, t.creator])).toEqual([
      ["Write the pitch deck", "Ten slides for the seed round.", co.adaId, "operator"],
    ]);
    co.taskId = tasks[0].id;
    // The form is cleared for the next task; the refusal is gone.
    expect(await form.getByLabel("Title").inputValue()).toBe("");
    expect(await form.getByTestId("action-error").count()).toBe(0);
  });

  it("comments, reassigns and marks blocked; an empty comment and no assignee are refused", async () => {
    const card = taskCard("Write the pitch deck");
    await card.getByText("Act on this task").click();
    await card.getByRole("button", { name: "Comment" }).click();
    const noBody = await refusal("POST", `/api/tasks/${co.taskId}/comments`, { body: "" });
    await expect.poll(() => card.getByTestId("action-error").textContent()).toBe(noBody);
    expect((await task()).comments).toEqual([]);

    await card.getByLabel("Comment (wakes the assignee)").fill("Lead with the warehouse numbers.");
    await card.getByRole("button", { name: "Comment" }).click();
    await expect
      .poll(async () => (await task()).comments.map((c: any) => c.body))
      .toEqual(["Lead with the warehouse numbers."]);
    await expect.poll(() => card.getByTestId("action-error").count()).toBe(0);

    await card.getByLabel("Assignee", { exact: true }).selectOption({ label: "Choose a member" });
    await card.getByRole("button", { name: "Assign", exact: true }).click();
    const noAssignee = await refusal("POST", `/api/tasks/${co.taskId}/assign`, { assignee: "" });
    await expect.poll(() => card.getByTestId("action-error").textContent()).toBe(noAssignee);
    expect((await task()).assigneeAgentId).toBe(co.adaId);

    await card
      .getByLabel("Assignee", { exact: true })
      .selectOption({ label: "Grace Hopper (Head of sales)" });
    await card.getByRole("button", { name: "Assign", exact: true }).click();
    await expect.poll(async () => (await task()).assigneeAgentId).toBe(co.graceId);
    await expect.poll(() => card.textContent()).toContain("Grace Hopper · asked by");

    await card.getByLabel("Comment (wakes the assignee)").fill("Waiting on the market figures.");
    await card.getByRole("button", { name: "Mark blocked" }).click();
    await expect.poll(async () => (await task()).status).toBe("blocked");
    await page.getByTestId("column-blocked").getByText("Write the pitch deck").waitFor();
    // The task as an operator reads it: the comments with who wrote them, and what changed, by whom.
    await card.getByText("Details", { exact: true }).click();
    const detail = card.getByTestId("task-detail");
    await expect.poll(() => detail.getByTestId("task-comment").count()).toBe(2);
    expect(await detail.getByTestId("task-comment").first().textContent()).toContain("the operator");
    expect(await detail.getByTestId("task-comment").first().textContent()).toContain(
      "Lead with the warehouse numbers.",
    );
    const history = await detail.getByTestId("task-history").allTextContents();
    expect(history.some((h) => h.startsWith("assigned to Grace Hopper by the operator"))).toBe(true);
    expect(history.some((h) => h.startsWith("to do → blocked by the operator"))).toBe(true);
    await screenshot(page, "40-cockpit-tasks");
  });

  it("cancels a task only once confirmed; Keep backs out", async () => {
    const card = taskCard("Write the pitch deck");
    if (!(await card.getByLabel("Assignee", { exact: true }).isVisible()))
      await card.getByText("Act on this task").click();
    await card.getByRole("button", { name: "Cancel task" }).click();
    await card.getByRole("button", { name: "Keep" }).click();
    expect((await task()).status).toBe("blocked");
    await card.getByRole("button", { name: "Cancel task" }).click();
    await card.getByRole("button", { name: "Cancel the task" }).click();
    await expect.poll(async () => (await task()).status).toBe("cancelled");
    await page.getByTestId("column-cancelled").getByText("Write the pitch deck").waitFor();
    // A closed task offers no action.
    expect(await taskCard("Write the pitch deck").getByTestId("task-actions").count()).toBe(0);
  });
});

describe("acting on an agent from the team table", () => {
  const panel = () => page.getByTestId("agent-panel");

  it("refuses a move to a connector that is not ready, then moves nothing", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}`);
    await page.getByRole("button", { name: "Manage Ada Lovelace" }).click();
    const move = panel().getByRole("form", { name: "Move Ada Lovelace to another model" });
    await move.getByLabel("Connector").selectOption("anthropic");
    const model = await move.getByLabel("Model").inputValue();
    expect(model).not.toBe("");
    await move.getByRole("button", { name: "Move to this model" }).click();
    const expected = await refusal("PATCH", `/api/agents/${co.adaId}/model`, {
      model,
      connectorId: "anthropic",
    });
    expect(expected).toMatch(/not ready/);
    await expect.poll(() => move.getByTestId("action-error").textContent()).toBe(expected);
    const ada = await ok<any>("GET", `/api/agents/${co.adaId}`);
    expect([ada.connectorId, ada.model]).toEqual(["openai-compatible", HELD_MODEL]);

    // The same model on its own connector: said, and nothing to change.
    await move.getByLabel("Connector").selectOption("openai-compatible");
    await move.getByRole("button", { name: "Move to this model" }).click();
    await expect
      .poll(() => move.getByRole("status").textContent())
      .toBe(`Ada Lovelace already runs on openai-compatible · ${HELD_MODEL}.`);
  });

  it("mints a key shown once with a copy button, refuses a too-long label, and revokes on confirmation", async () => {
    const keys = panel().getByTestId("agent-keys");
    const mint = keys.getByRole("form", { name: "Mint a key for Ada Lovelace" });
    const long = "x".repeat(101);
    await mint.getByLabel("Label (what the key is for)").fill(long);
    await mint.getByRole("button", { name: "Mint a key" }).click();
    const expected = await refusal("POST", `/api/agents/${co.adaId}/keys`, { label: long });
    expect(expected).toMatch(/label/);
    await expect.poll(() => keys.getByTestId("action-error").textContent()).toBe(expected);
    expect(await items(`/api/agents/${co.adaId}/keys`)).toEqual([]);

    await mint.getByLabel("Label (what the key is for)").fill("build laptop");
    await mint.getByRole("button", { name: "Mint a key" }).click();
    const token = (await keys.getByTestId("minted-token").textContent())!;
    expect(token.length).toBeGreaterThan(20);
    // The token acts as Ada inside the company.
    expect((await api("GET", `/api/agents/${co.adaId}`, undefined, token)).status).toBe(200);
    await keys.getByRole("button", { name: "Copy" }).click();
    await keys.getByRole("button", { name: "Copied" }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(token);
    await screenshot(page, "41-cockpit-agent-key");
    await keys.getByRole("button", { name: "Done" }).click();
    expect(await keys.getByTestId("minted-token").count()).toBe(0);

    const row = keys.getByTestId("agent-key").filter({ hasText: "build laptop" });
    await row.getByRole("button", { name: "Revoke" }).click();
    await row.getByRole("button", { name: "Keep" }).click();
    expect((await api("GET", `/api/agents/${co.adaId}`, undefined, token)).status).toBe(200);
    await row.getByRole("button", { name: "Revoke" }).click();
    await row.getByRole("button", { name: "Revoke the key" }).click();
    await expect.poll(() => keys.getByTestId("agent-key").count()).toBe(0);
    expect((await api("GET", `/api/agents/${co.adaId}`, undefined, token)).status).toBe(401);
  });

  it("terminates an agent only once confirmed; the CEO offers no terminate", async () => {
    await page.getByRole("button", { name: "Manage Grace Hopper" }).click();
    await panel().getByRole("button", { name: "Terminate Grace Hopper" }).click();
    await panel().getByRole("button", { name: "Keep" }).click();
    expect((await ok<any>("GET", `/api/agents/${co.graceId}`)).status).toBe("active");
    await panel().getByRole("button", { name: "Terminate Grace Hopper" }).click();
    await panel().getByRole("button", { name: "Terminate", exact: true }).click();
    await expect
      .poll(async () => (await ok<any>("GET", `/api/agents/${co.graceId}`)).status)
      .toBe("terminated");
    await expect
      .poll(() => page.getByTestId("team-table").locator("tr.terminated").textContent())
      .toContain("Grace Hopper");
    const ceoName = (await ok<any>("GET", `/api/agents/${co.ceoId}`)).name as string;
    await page.getByRole("button", { name: `Manage ${ceoName}` }).click();
    await panel().getByTestId("agent-keys").waitFor();
    expect(
      await panel()
        .getByRole("button", { name: /^Terminate/ })
        .count(),
    ).toBe(0);
  });
});

describe("raising the budget where the warning is", () => {
  it("on the exhausted notice: a bad limit or price is refused as the server words it; a good one clears it", async () => {
    const { runId } = await ok<any>("POST", `/api/agents/${co.ceoId}/wake`, {});
    await expect.poll(async () => (await ok<any>("GET", `/api/runs/${runId}`)).status, RUN_WAIT).toBe("done");
    await ok("PUT", `/api/companies/${co.id}/budget`, { tokens: 50 });
    await page.goto(`${served.url}/#/companies/${co.id}`);
    const notice = page.getByTestId("budget-notice");
    await expect.poll(() => notice.textContent()).toContain("Budget: exhausted");
    const raise = page.getByRole("form", { name: "Raise the budget" });
    // Tokens bind (there is no USD limit): the token limit is offered, with today's value.
    expect(await raise.getByLabel(/^Token limit/).inputValue()).toBe("50");

    await raise.getByLabel(/^Token limit/).fill("lots");
    await raise.getByRole("button", { name: "Set the limit" }).click();
    const badLimit = await refusal("PUT", `/api/companies/${co.id}/budget`, { tokens: "lots" });
    expect(badLimit).toMatch(/tokens/);
    await expect.poll(() => raise.getByTestId("action-error").textContent()).toBe(badLimit);
    expect((await ok<any>("GET", `/api/companies/${co.id}/budget`)).budget.limitTokens).toBe(50);

    await page.getByText("Set a model's price (USD per million tokens)").click();
    const price = page.getByRole("form", { name: "Set a model's price" });
    await price.getByLabel("Input").fill("-1");
    await price.getByLabel("Output").fill("15");
    await price.getByRole("button", { name: "Set the price" }).click();
    const since = new Date().toISOString().slice(0, 10);
    const badPrice = await refusal("PUT", `/api/companies/${co.id}/budget`, {
      price: { model: HELD_MODEL, since, input: -1, output: 15, cacheRead: 0, cacheWrite: 0 },
    });
    await expect.poll(() => price.getByTestId("action-error").textContent()).toBe(badPrice);
    expect((await ok<any>("GET", `/api/companies/${co.id}/budget`)).prices).toEqual([]);
    await screenshot(page, "42-cockpit-budget-refused");

    await price.getByLabel("Input").fill("3");
    await price.getByRole("button", { name: "Set the price" }).click();
    await expect
      .poll(async () => (await ok<any>("GET", `/api/companies/${co.id}/budget`)).prices)
      .toEqual([{ model: HELD_MODEL, since, input: 3, output: 15, cacheRead: 0, cacheWrite: 0 }]);

    await raise.getByLabel(/^Token limit/).fill("1000000");
    await raise.getByRole("button", { name: "Set the limit" }).click();
    await expect.poll(() => notice.count()).toBe(0);
    const after = (await ok<any>("GET", `/api/companies/${co.id}/budget`)).budget;
    expect([after.limitTokens, after.state]).toEqual([1_000_000, "ok"]);
  });
});

describe("runs from the dashboard", () => {
  it("runs due work and says what became of the pass", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}/runs`);
    const before = (await items(`/api/companies/${co.id}/runs`)).length;
    await page.getByRole("button", { name: "Run due work" }).click();
    const line = (await page.getByTestId("due-work-result").textContent())!.trim();
    const started = /^(\d+) runs? started/.exec(line);
    if (started) {
      await expect
        .poll(async () => (await items(`/api/companies/${co.id}/runs`)).length)
        .toBe(before + Number(started[1]));
    } else {
      expect(line).toMatch(/^Nothing was due|queued for a worker|^refused: /);
      expect((await items(`/api/companies/${co.id}/runs`)).length).toBe(before);
    }
  });

  it("stops a running run once confirmed: it ends cancelled, and a run that ended cannot be stopped", async () => {
    // Let any run the due work started finish first.
    await expect
      .poll(
        async () => (await items(`/api/companies/${co.id}/runs`)).some((r) => r.status === "running"),
        RUN_WAIT,
      )
      .toBe(false);
    held.hold();
    const { runId } = await ok<any>("POST", `/api/agents/${co.ceoId}/wake`, {});
    await page.goto(`${served.url}/#/companies/${co.id}`);
    const banner = page.locator(".alert.running").filter({ hasText: runId });
    await banner.getByRole("button", { name: "Stop" }).click();
    await screenshot(page, "43-cockpit-stop-confirm");
    await banner.getByRole("button", { name: "Keep" }).click();
    expect((await ok<any>("GET", `/api/runs/${runId}`)).status).toBe("running");
    await banner.getByRole("button", { name: "Stop" }).click();
    await banner.getByRole("button", { name: "Stop the run" }).click();
    await expect
      .poll(async () => (await ok<any>("GET", `/api/runs/${runId}`)).status, RUN_WAIT)
      .toBe("cancelled");
    await expect.poll(() => page.locator(".alert.running").count()).toBe(0);
    held.release();
    const again = await api<any>("POST", `/api/runs/${runId}/stop`);
    expect(again.status).toBe(409);
    expect(again.body.error.message).toBe(`run ${runId} is not running (it is cancelled): nothing to stop`);
    // The stop is the operator's write, in the audit log once (the refused second one wrote nothing).
    const stops = (await items<any>(`/api/companies/${co.id}/audit`)).filter(
      (r) => r.action === "run.stopped",
    );
    expect(stops.map((r) => [r.target, r.actorType])).toEqual([[`run ${runId}`, "operator"]]);
    // The run's page offers no stop for a run that has ended.
    await page.goto(`${served.url}/#/companies/${co.id}/runs/${runId}`);
    // The header names the agent; the run is known by its id under it and by its outcome.
    await page.getByTestId("run-header").getByText(runId).waitFor();
    await expect.poll(() => page.getByTestId("run-state").textContent()).toBe("cancelled");
    expect(await page.getByRole("button", { name: "Stop" }).count()).toBe(0);
  });

  it("keeps every action in reach at phone width", async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${served.url}/#/companies/${co.id}`);
    await page.getByRole("button", { name: "Manage Ada Lovelace" }).click();
    const mint = page.getByRole("button", { name: "Mint a key" });
    await mint.scrollIntoViewIfNeeded();
    expect(await mint.isVisible()).toBe(true);
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "44-cockpit-agent-phone");
    await page.goto(`${served.url}/#/companies/${co.id}/tasks`);
    await page.getByRole("form", { name: "New task" }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "45-cockpit-tasks-phone");
    await page.setViewportSize(DESKTOP);
  });
});
