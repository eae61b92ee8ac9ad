// A whole operating day from the dashboard alone, in Debian's Chromium against a real `cadre serve`
// with no provider key (a new company runs on the offline connector): the operator creates a
// company, starts the CEO, approves its strategy, writes to the CEO and reads its answer, sets a
// budget, comments on and reassigns a task, raises the budget from its warning, terminates an
// agent, and stops a run held open by a loopback model. Every step is done with the page and
// checked as the operator sees it; the API is read only to wait for the server's background work.
// Screenshots of each major step at 1280×800 and 390×844 go to packages/web/screenshots/
// operating-day/ (committed, looked at); at phone width nothing may hold the page wider.
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Browser, Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchChromium } from "./support/browser.js";
import { HELD_MODEL, type HeldModel, startHeldModel } from "./support/held-model.js";
import { apiOk, type Served, startCadreServe } from "./support/serve.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
const SHOTS = fileURLToPath(new URL("../../screenshots/operating-day/", import.meta.url));
/** The server's background work (a run, the due-work pass every ten seconds) on a shared machine. */
const WORK = { timeout: 90_000, interval: 250 };
vi.setConfig({ expect: { poll: { timeout: 15_000, interval: 100 } }, testTimeout: 180_000 });

let served: Served;
let held: HeldModel;
let browser: Browser;
let page: Page;
const co = { id: "", ceoName: "" };
/** Two leads the CEO hired: one whose task is reassigned and who is then terminated, one who takes it. */
const lead = { first: "", second: "" };

/** The page at both widths: desktop, then phone (nothing wider than the phone), then back. */
async function shots(name: string): Promise<void> {
  await mkdir(SHOTS, { recursive: true });
  await page.screenshot({ path: join(SHOTS, `${name}-desktop.png`), fullPage: true });
  await page.setViewportSize(PHONE);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth))
    .toBeLessThanOrEqual(PHONE.width);
  await page.screenshot({ path: join(SHOTS, `${name}-phone.png`), fullPage: true });
  await page.setViewportSize(DESKTOP);
}

const tab = (name: string) =>
  page.getByRole("navigation", { name: "Company sections" }).getByRole("link", { name, exact: true });
const taskCard = (title: string) => page.getByTestId("task-card").filter({ hasText: title });
/** Picks the member named `name` in an assignee select (its options read "Name (role)"). */
async function chooseMember(select: Locator, name: string): Promise<void> {
  const label = (await select.locator("option").allTextContents()).find((l) => l.startsWith(`${name} (`));
  if (!label) throw new Error(`no option for ${name}`);
  await select.selectOption({ label });
}
const openTasks = async () => {
  await tab("Tasks").click();
  await page.getByRole("form", { name: "New task" }).waitFor();
};

beforeAll(async () => {
  // The loopback model answers at once while its connector is added and checked; it holds the
  // calls of the run the operator stops.
  held = await startHeldModel();
  held.release();
  [served, browser] = await Promise.all([startCadreServe(), launchChromium()]);
  page = await (await browser.newContext({ viewport: DESKTOP })).newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(served.signInLink);
  await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
});

afterAll(async () => {
  held?.release();
  await browser?.close();
  await served?.stop();
  await held?.close();
});

describe("an operating day from the dashboard", () => {
  it("creates a company: it opens at once, its CEO in team building, offering to start", async () => {
    expect(await page.getByText("No company yet: create the first one.").count()).toBe(1);
    await page.getByLabel("Name").fill("Harbor Robotics");
    await page.getByLabel("Goal").fill("Build warehouse robots and sell them to logistics companies.");
    await page.getByRole("button", { name: "Create company" }).click();
    await page.getByRole("heading", { name: "Harbor Robotics", level: 1 }).waitFor();
    co.id = /#\/companies\/([^/]+)/.exec(page.url())![1]!;
    const mode = page.getByTestId("mode-panel");
    await expect.poll(() => mode.textContent()).toContain("team building");
    await mode.getByRole("button", { name: "Start team building" }).waitFor();
    await shots("01-created");
  });

  it("starts the CEO, which hires its leads and files a strategy; the operator approves it", async () => {
    await page.getByTestId("mode-panel").getByRole("button", { name: "Start team building" }).click();
    // The offline CEO hires and files: the decision waits under Approvals.
    await page
      .getByRole("navigation", { name: "Company sections" })
      .getByLabel("1 pending")
      .waitFor({ timeout: WORK.timeout });
    await page.getByTestId("mode-panel").getByRole("link", { name: "Decide the strategy" }).click();
    const pending = page.getByTestId("pending-approval");
    await pending.waitFor();
    // The strategy is rendered, not raw markdown: its headings are headings.
    await pending.getByRole("heading", { name: "Team and first responsibilities" }).waitFor();
    expect(await pending.textContent()).not.toContain("## ");
    await shots("02-strategy-pending");
    await pending.getByLabel("Note to the CEO (optional)").fill("Go ahead; keep the first pilot small.");
    await pending.getByRole("button", { name: "Approve", exact: true }).click();
    await expect.poll(() => page.getByTestId("decision-outcome").textContent()).toContain("pprove");
    await tab("Overview").click();
    await expect.poll(() => page.getByTestId("mode-panel").textContent()).toContain("operating");
    // The team the CEO hired, as the team table shows it.
    const agents = (await apiOk(served, "GET", `/api/companies/${co.id}/agents`)).items as Array<{
      name: string;
      isCeo: boolean;
    }>;
    co.ceoName = agents.find((a) => a.isCeo)!.name;
    const rows = page.getByTestId("team-table").locator("tbody tr:not(.row-panel):not(.row-error) th");
    await expect.poll(() => rows.count()).toBe(agents.length);
    const leads = (await rows.allTextContents()).map((n) => n.trim()).filter((n) => n !== co.ceoName);
    expect(leads.length).toBeGreaterThanOrEqual(3);
    [lead.first, lead.second] = [leads[0]!, leads[1]!];
  });

  it("the approved strategy becomes the leads' tasks, worked and accepted without the operator", async () => {
    await openTasks();
    // One task per lead from the CEO; each lead hands it in and the CEO accepts it.
    await expect
      .poll(() => page.getByTestId("column-done").getByTestId("task-card").count(), WORK)
      .toBeGreaterThanOrEqual(3);
    await expect
      .poll(() => page.getByTestId("task-card").count())
      .toBe(await page.getByTestId("column-done").getByTestId("task-card").count());
    const first = page.getByTestId("column-done").getByTestId("task-card").first();
    await first.getByText("Details", { exact: true }).click();
    // The deliverable is rendered markdown (a list), with the runs that worked it linked.
    await first.getByTestId("task-detail").locator("li").first().waitFor();
    await shots("03-tasks-done");
  });

  it("writes to the CEO and reads its answer in the thread; the mode stays as it was", async () => {
    await tab("Overview").click();
    const form = page.getByRole("form", { name: "Write to the CEO" });
    await form.getByLabel("Message to the CEO").fill("How did the **first week** go?");
    await form.getByRole("button", { name: "Send" }).click();
    const thread = page.getByTestId("thread");
    const mine = thread.locator("li.from-operator").filter({ hasText: "How did the first week go?" });
    await mine.waitFor();
    expect(await mine.locator("strong", { hasText: "first week" }).count()).toBe(1);
    expect(await form.getByLabel("Message to the CEO").inputValue()).toBe("");
    // The CEO is woken for the message and answers here, without a reload (quoting it, rendered).
    const answer = thread
      .locator("li.from-ceo")
      .filter({ hasText: "You wrote: “How did the first week go?”" });
    await answer.waitFor({ timeout: WORK.timeout });
    expect(await answer.getByTestId("message-author").textContent()).toBe(co.ceoName);
    expect(await answer.textContent()).toContain("the strategy is approved");
    expect(await page.getByTestId("mode-panel").textContent()).toContain("operating");
    await answer.scrollIntoViewIfNeeded();
    await shots("04-thread");
  });

  it("sets a budget below what was spent: the Usage tab says it is exhausted", async () => {
    await tab("Usage").click();
    const set = page.getByRole("form", { name: "Set the budget" });
    // A new company has a USD budget; its spend on the offline model is $0, so tokens are limited.
    await set.getByLabel("Limit on").selectOption("tokens");
    const before = await page.getByTestId("budget-limit").textContent();
    await set.getByLabel(/^Token limit/).fill("a lot");
    await set.getByRole("button", { name: "Set the limit" }).click();
    await expect.poll(() => set.getByTestId("action-error").textContent()).toMatch(/tokens/);
    expect(await page.getByTestId("budget-limit").textContent()).toBe(before);
    await set.getByLabel(/^Token limit/).fill("1000");
    await set.getByRole("button", { name: "Set the limit" }).click();
    await expect.poll(() => page.getByTestId("budget-limit").textContent()).toContain("1,000 tokens");
    await expect.poll(() => page.getByTestId("budget-company").textContent()).toContain("exhausted");
    await shots("05-budget-exhausted");
  });

  it("creates a task, comments on it and reassigns it; with the budget spent it waits in To do", async () => {
    await openTasks();
    const form = page.getByRole("form", { name: "New task" });
    await form.getByLabel("Title").fill("Draft the pilot contract");
    await form.getByLabel("Description (optional)").fill("Two pages, for the first logistics customer.");
    await chooseMember(form.getByLabel("Assignee", { exact: true }), lead.first);
    await form.getByRole("button", { name: "Create task" }).click();
    const card = taskCard("Draft the pilot contract");
    await page.getByTestId("column-todo").getByText("Draft the pilot contract").waitFor();
    if (!(await card.getByLabel("Assignee", { exact: true }).isVisible()))
      await card.getByText("Act on this task").click();

    await card.getByRole("button", { name: "Comment" }).click();
    await expect.poll(() => card.getByTestId("action-error").textContent()).toMatch(/body/);
    await card.getByLabel("Comment (wakes the assignee)").fill("Use our standard terms; no exclusivity.");
    await card.getByRole("button", { name: "Comment" }).click();
    await expect.poll(() => card.getByTestId("action-error").count()).toBe(0);

    await chooseMember(card.getByLabel("Assignee", { exact: true }), lead.second);
    await card.getByRole("button", { name: "Assign", exact: true }).click();
    await expect.poll(() => card.textContent()).toContain(`${lead.second} · asked by`);
    await card.getByText("Details", { exact: true }).click();
    const detail = card.getByTestId("task-detail");
    await expect.poll(() => detail.getByTestId("task-comment").count()).toBe(1);
    expect(await detail.getByTestId("task-comment").textContent()).toContain(
      "Use our standard terms; no exclusivity.",
    );
    const history = await detail.getByTestId("task-history").allTextContents();
    expect(history.some((h) => h.startsWith(`assigned to ${lead.second} by the operator`))).toBe(true);
    // No wake can run while the budget is exhausted: the task is still to do.
    expect(await page.getByTestId("column-todo").getByText("Draft the pilot contract").count()).toBe(1);
    await card.scrollIntoViewIfNeeded();
    await shots("06-task-reassigned");
  });

  it("raises the budget from the warning on the overview; the waiting task is then worked and handed in", async () => {
    await tab("Overview").click();
    const notice = page.getByTestId("budget-notice");
    await expect.poll(() => notice.textContent()).toContain("Budget: exhausted");
    // What the company waits for is the budget, not its next wake.
    await expect
      .poll(() => page.getByTestId("waiting-headline").textContent())
      .toMatch(/^Waiting for budget: the company's budget is exhausted/);
    const raise = page.getByRole("form", { name: "Raise the budget" });
    expect(await raise.getByLabel(/^Token limit/).inputValue()).toBe("1000");
    await shots("07-budget-warning");
    await raise.getByLabel(/^Token limit/).fill("5000000");
    await raise.getByRole("button", { name: "Set the limit" }).click();
    await expect.poll(() => notice.count()).toBe(0);
    await expect
      .poll(() => page.getByTestId("waiting-headline").textContent())
      .not.toMatch(/^Waiting for budget/);
    // The reassigned lead works it and hands it in: the operator asked for it, so it waits for the
    // operator's review.
    await openTasks();
    const card = page.getByTestId("column-in_review").getByTestId("task-card").filter({
      hasText: "Draft the pilot contract",
    });
    await card.waitFor({ timeout: WORK.timeout });
    expect(await card.textContent()).toContain(`${lead.second} · asked by the operator`);
  });

  it("terminates an agent once confirmed: the team shows it terminated", async () => {
    await tab("Overview").click();
    await page.getByRole("button", { name: `Manage ${lead.first}` }).click();
    const panel = page.getByTestId("agent-panel");
    await panel.getByRole("button", { name: `Terminate ${lead.first}` }).click();
    await shots("08-terminate-confirm");
    await panel.getByRole("button", { name: "Terminate", exact: true }).click();
    await expect
      .poll(() => page.getByTestId("team-table").locator("tr.terminated").textContent())
      .toContain(lead.first);
    expect(await page.getByRole("button", { name: `Wake ${lead.first}` }).count()).toBe(0);
  });

  it("adds a local model, moves a lead onto it, wakes the lead and stops the run it holds open", async () => {
    await tab("Connectors").click();
    await page.getByLabel("Id", { exact: true }).fill("local");
    await page.getByLabel("Kind").selectOption("openai-compatible");
    await page.getByLabel("Base URL").fill(held.baseUrl);
    await page.getByLabel("Models").fill(HELD_MODEL);
    await page.getByLabel("Context window").fill("128000");
    await page.getByRole("button", { name: "Add connector" }).click();
    await expect
      .poll(() => page.getByRole("status").filter({ hasText: "Added local" }).textContent())
      .toBe("Added local: ready.");

    await tab("Overview").click();
    await page.getByRole("button", { name: `Manage ${lead.second}` }).click();
    const move = page.getByRole("form", { name: `Move ${lead.second} to another model` });
    await move.getByLabel("Connector").selectOption("local");
    expect(await move.getByLabel("Model").inputValue()).toBe(HELD_MODEL);
    await move.getByRole("button", { name: "Move to this model" }).click();
    await expect
      .poll(() => move.getByRole("status").textContent())
      .toBe(`${lead.second} now runs on local · ${HELD_MODEL}.`);

    held.hold();
    await page.getByRole("button", { name: `Wake ${lead.second}` }).click();
    const banner = page.locator(".alert.running").filter({ hasText: lead.second });
    await banner.waitFor();
    await banner.getByRole("button", { name: "Stop" }).click();
    await shots("09-stop-confirm");
    await banner.getByRole("button", { name: "Stop the run" }).click();
    await expect.poll(() => page.locator(".alert.running").count(), WORK).toBe(0);

    await tab("Runs").click();
    const row = page.getByTestId("runs-table").locator("tbody tr").filter({ hasText: lead.second }).first();
    await expect.poll(() => row.textContent()).toContain("cancelled");
    await row.getByRole("link").first().click();
    await expect.poll(() => page.getByTestId("run-state").textContent()).toBe("cancelled");
    expect(await page.getByTestId("run-header").textContent()).toContain(lead.second);
    expect(await page.getByRole("button", { name: "Stop" }).count()).toBe(0);
    await shots("10-run-stopped");
  });
});
