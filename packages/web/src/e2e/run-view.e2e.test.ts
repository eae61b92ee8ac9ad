// Runs and tasks as an operator reads them, in Debian's Chromium against a real
// `cadre serve` on the offline connector, at 1280×800 and 390×844. A team-building run: who ran it,
// the company, why it woke, its outcome, tokens and $, each hire as a hire card and the filed
// strategy as rendered markdown linked to its approval, the raw JSON and the harness's own rows
// folded away. A run stopped by its run cap: the stop named once. Tasks: a task waiting on another
// sits in Blocked, its blocker named by title and linked; the linked task opens with its
// description, comments, history and runs; no badge spills out of its card. Screenshots go to
// packages/web/test-artifacts/.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCost, formatTokens } from "../model/format.js";
import { launchChromium, screenshot } from "./support/browser.js";
import { type Served, startCadreServe, apiOk } from "./support/serve.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let served: Served;
let browser: Browser;
let page: Page;
const co = { id: "", name: "Northwind Robotics", ceoId: "", runId: "" };

const api = <T = any>(method: string, path: string, body?: unknown) => apiOk<T>(served, method, path, body);

async function company(name: string): Promise<{ id: string; ceoAgentId: string }> {
  return api("POST", "/api/companies", {
    name,
    goal: "Build warehouse robots and sell them to logistics companies.",
  });
}

/** Wakes the agent and waits until its run ended; the run's id. */
async function wakeToEnd(agentId: string, body: Record<string, unknown>): Promise<string> {
  const { runId } = await api<{ runId: string }>("POST", `/api/agents/${agentId}/wake`, body);
  // Polled by hand: this runs in beforeAll as well, where expect.poll cannot.
  for (let i = 0; i < 600; i++) {
    if ((await api<{ status: string }>("GET", `/api/runs/${runId}`)).status !== "running") return runId;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`run ${runId} did not end within a minute`);
}

/** The visible text of the page's main part (closed folds and rows out of view are not in it). */
const visibleText = () => page.locator("main").innerText();

/** How often `needle` occurs in `text`. */
const count = (text: string, needle: string) => text.split(needle).length - 1;

beforeAll(async () => {
  [served, browser] = await Promise.all([startCadreServe(), launchChromium()]);
  page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(served.signInLink);
  await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
  const created = await company(co.name);
  co.id = created.id;
  co.ceoId = created.ceoAgentId;
  co.runId = await wakeToEnd(co.ceoId, { trigger: "start_team_building" });
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

describe("a run as an operator reads it", () => {
  it("heads the run with its agent, company, why it woke, outcome, tokens and $", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}/runs/${co.runId}`);
    const header = page.getByTestId("run-header");
    const ceo = (await api<{ items: any[] }>("GET", `/api/companies/${co.id}/agents`)).items.find(
      (a) => a.isCeo,
    );
    await expect.poll(() => header.getByTestId("run-agent").textContent()).toBe(ceo.name);
    expect(await header.getByTestId("run-agent-role").textContent()).toBe(ceo.role);
    expect(await header.getByTestId("run-agent").getAttribute("href")).toBe(`#/companies/${co.id}`);
    expect(await page.getByTestId("crumb-company").textContent()).toBe(co.name);
    expect(await header.getByTestId("run-trigger").textContent()).toBe(
      "Woke because the operator started team building",
    );
    await expect.poll(() => header.getByTestId("run-state").textContent()).toBe("done");
    expect(await header.getByTestId("run-outcome-text").textContent()).toBe("Done");
    const usage = await api<{ usage: { total: number; cost: number | null } }>(
      "GET",
      `/api/runs/${co.runId}/usage`,
    );
    expect(await header.getByTestId("run-spend").textContent()).toContain(
      `${formatTokens(usage.usage.total)} tokens`,
    );
    expect(await header.getByTestId("run-cost").textContent()).toBe(formatCost(usage.usage.cost));
    await screenshot(page, "60-run-header-desktop", { fullPage: false });
  });

  it("shows each hire as a hire card and the filed strategy rendered, linked to its approval; JSON folded", async () => {
    const events = page.getByTestId("run-events");
    const hires = (await api<{ items: any[] }>("GET", `/api/companies/${co.id}/agents`)).items.filter(
      (a) => !a.isCeo,
    );
    await events.evaluate((el) => el.scrollTo(0, 0));
    const first = page.getByTestId("tool-call").first();
    await expect.poll(() => first.getAttribute("data-kind")).toBe("hire");
    const card = first.getByTestId("hire-card");
    // The first hire of the run is one of the team (hires made in the same millisecond have no
    // order between them in the team's list).
    const cardText = await card.innerText();
    expect(hires.filter((h) => cardText.includes(`${h.name} — ${h.role}`))).toHaveLength(1);
    expect(await card.innerText()).toContain("Hired: now in the team.");
    // The raw arguments and result are there, folded: not shown until "details" is opened.
    const raw = first.locator("details.tool-raw pre").first();
    expect(await raw.isVisible()).toBe(false);
    await first.getByText("details", { exact: true }).click();
    expect(await raw.isVisible()).toBe(true);
    expect(await raw.textContent()).toContain('"connectorId": "offline"');

    // The strategy, filed last: rendered markdown (headings, lists), no escaped string, its approval linked.
    await events.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    const filed = page.getByTestId("filed-card");
    await filed.waitFor();
    const [approval] = (await api<{ items: any[] }>("GET", `/api/companies/${co.id}/approvals`)).items;
    expect(await filed.locator(".markdown h1, .markdown h2, .markdown h3").count()).toBeGreaterThan(0);
    expect(await filed.locator(".markdown li").count()).toBeGreaterThan(0);
    expect(await filed.innerText()).not.toMatch(/\\n|^#+ /m);
    const link = filed.getByTestId("filed-approval-link");
    expect(await link.textContent()).toBe(`Approval ${approval.id}`);
    expect(await link.getAttribute("href")).toBe(`#/companies/${co.id}/approvals`);
    expect(
      await page.getByTestId("tool-call").filter({ has: filed }).locator(".tool-name").textContent(),
    ).toBe("Strategy filed");
    await screenshot(page, "61-run-strategy-desktop", { fullPage: false });
  });

  it("keeps the harness's own rows and the context controller's terms behind folds", async () => {
    const text = await visibleText();
    for (const jargon of ["rollover latch", "Model call 1", "usage of call", "session: started"])
      expect(text).not.toContain(jargon);
    const toggle = page.getByTestId("show-internal");
    await toggle.check();
    await page.getByTestId("run-events").evaluate((el) => el.scrollTo(0, 0));
    await expect.poll(() => page.getByTestId("run-events").innerText()).toContain("Model call 1");
    await toggle.uncheck();
    await page.getByText("Run details").click();
    await expect.poll(visibleText).toContain("rollover latch");
    await page.getByText("Run details").click();
  });

  it("reads the same at phone width, nothing wider than the screen", async () => {
    await page.setViewportSize(PHONE);
    await page.getByTestId("run-header").scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    const header = (await page.getByTestId("run-header").boundingBox())!;
    expect(header.x + header.width).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "62-run-phone");
    await page.setViewportSize(DESKTOP);
  });

  it("names a run-cap stop once, as a stop — no provider error, no repeats, no recovery jargon", async () => {
    const capped = await company("Capped Co");
    await api("PUT", `/api/companies/${capped.id}/budget`, { runModelCalls: 2 });
    const runId = await wakeToEnd(capped.ceoAgentId, { trigger: "start_team_building" });
    expect((await api<{ stopReason: string }>("GET", `/api/runs/${runId}`)).stopReason).toBe("run_cap");
    await page.goto(`${served.url}/#/companies/${capped.id}/runs/${runId}`);
    const outcome = page.getByTestId("run-outcome-text");
    await expect
      .poll(() => outcome.textContent())
      .toBe("Stopped by the run's cap: the run reached its cap of 2 model calls");
    await expect
      .poll(() => page.getByTestId("run-terminal").textContent())
      .toBe("Run ended: stopped by the run's cap");
    expect(await page.getByTestId("run-state").textContent()).toBe("stopped");
    const text = await visibleText();
    expect(count(text, "reached its cap of 2 model calls")).toBe(1);
    for (const noise of [
      "provider_error",
      "Error (",
      "recovery: not replayed",
      "spend control",
      "cadre budgets set",
    ])
      expect(text).not.toContain(noise);
    await screenshot(page, "63-run-cap-stop-desktop", { fullPage: false });
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(page, "64-run-cap-stop-phone");
    await page.setViewportSize(DESKTOP);
  });
});

describe("tasks as an operator reads them", () => {
  const t = { spec: "", build: "" };
  let hires: any[] = [];

  it("puts a task waiting on another in Blocked, its blocker named by title and linked", async () => {
    const [approval] = (await api<{ items: any[] }>("GET", `/api/companies/${co.id}/approvals`)).items;
    await api("POST", `/api/approvals/${approval.id}/approve`, {});
    hires = (await api<{ items: any[] }>("GET", `/api/companies/${co.id}/agents`)).items.filter(
      (a) => !a.isCeo,
    );
    t.spec = (
      await api<{ id: string }>("POST", `/api/companies/${co.id}/tasks`, {
        title: "Write the robot arm specification with every load case and the safety margins",
        description: "Cover **payload**, reach and the duty cycle.",
      })
    ).id;
    t.build = (
      await api<{ id: string }>("POST", `/api/companies/${co.id}/tasks`, {
        title: "Build the prototype",
        assignee: hires[1].name,
        blockedBy: [t.spec],
      })
    ).id;
    await api("POST", `/api/tasks/${t.spec}/comments`, { body: "Start with the _gripper_." });
    await page.goto(`${served.url}/#/companies/${co.id}/tasks`);
    const blocked = page.getByTestId("column-blocked");
    const card = blocked.locator(`[data-task="${t.build}"]`);
    await card.waitFor();
    expect(await page.getByTestId("column-todo").locator(`[data-task="${t.build}"]`).count()).toBe(0);
    const blocker = card.getByTestId("task-blocker");
    expect(await blocker.textContent()).toBe(
      "Write the robot arm specification with every load case and the safety margins",
    );
    await screenshot(page, "65-tasks-blocked-desktop");
    await blocker.click();
    expect(page.url()).toContain(`#/companies/${co.id}/tasks/${t.spec}`);
    // Assigned now (not at creation, so the blocked task stays blocked until the board was read).
    await api("POST", `/api/tasks/${t.spec}/assign`, { assignee: hires[0].name });
  });

  it("opens the linked task with its description, comments (who, when), history and the runs that worked it", async () => {
    const card = page.locator(`[data-task="${t.spec}"]`);
    const detail = card.getByTestId("task-detail");
    await detail.waitFor();
    expect(await detail.isVisible()).toBe(true);
    expect(await detail.locator(".markdown strong", { hasText: "payload" }).count()).toBe(1);
    const comment = detail.getByTestId("task-comment");
    await expect.poll(() => comment.count()).toBeGreaterThan(0);
    const operatorComment = comment.filter({ hasText: "gripper" });
    expect(await operatorComment.innerText()).toMatch(
      /^the operator · \d{1,2}\/\d{1,2}\/\d{2,4}, \d{1,2}:\d\d:\d\d/,
    );
    expect(await operatorComment.locator("em", { hasText: "gripper" }).count()).toBe(1);
    expect(await detail.getByTestId("task-history").first().innerText()).toContain("the operator");
    // The assignee was woken for it; its run is linked from the task once the run has started.
    await expect
      .poll(async () => (await api<any>("GET", `/api/tasks/${t.spec}`)).wakes.some((w: any) => w.runId), {
        timeout: 60_000,
      })
      .toBe(true);
    const runLink = detail
      .getByTestId("task-run")
      .filter({ hasText: `${hires[0].name}'s run` })
      .locator("a");
    await expect.poll(() => runLink.count(), { timeout: 30_000 }).toBe(1);
    await screenshot(page, "66-task-detail-desktop");
    // The run it links to says it woke for this task, by title, linked back.
    await runLink.click();
    const trigger = page.getByTestId("run-trigger");
    await expect.poll(() => trigger.textContent()).toContain("a task was assigned to it");
    const back = trigger.locator(`[data-testid="trigger-task"][href="#/companies/${co.id}/tasks/${t.spec}"]`);
    await expect
      .poll(() => back.textContent())
      .toBe("Write the robot arm specification with every load case and the safety margins");
    // Its task tool calls name the task by title and link to it.
    await page.getByTestId("run-terminal").waitFor();
    const change = page
      .locator(`[data-testid="task-link"][href="#/companies/${co.id}/tasks/${t.spec}"]`)
      .last();
    await expect
      .poll(() => change.textContent())
      .toBe("Write the robot arm specification with every load case and the safety margins");
    expect(await change.locator("xpath=..").textContent()).toMatch(
      /margins → (in progress|in review|done), /,
    );
    await screenshot(page, "67-run-for-task-desktop", { fullPage: false });
  }, 120_000);

  it("keeps every badge, id and title inside its card at both widths", async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      await page.setViewportSize(viewport);
      await page.goto(`${served.url}/#/companies/${co.id}/tasks`);
      await page.getByTestId("task-card").first().waitFor();
      const spills = await page.getByTestId("task-card").evaluateAll((cards) =>
        cards.flatMap((card) => {
          const box = card.getBoundingClientRect();
          return [...card.querySelectorAll(".badge, code, h3, a")]
            .map((el) => el.getBoundingClientRect())
            .filter((r) => r.width > 0 && (r.left < box.left - 1 || r.right > box.right + 1))
            .map(
              (r) =>
                `${card.getAttribute("data-task")}: ${Math.round(r.left)}–${Math.round(r.right)} outside ${Math.round(box.left)}–${Math.round(box.right)}`,
            );
        }),
      );
      expect(spills).toEqual([]);
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
        viewport.width,
      );
      await screenshot(page, `68-tasks-board-${viewport.width}`);
    }
    await page.setViewportSize(DESKTOP);
  });
});
