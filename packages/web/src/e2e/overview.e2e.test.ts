// The company at a glance, in Debian's Chromium against a real `cadre serve` (the built-in offline
// connector, whose scripted CEO revises and refiles when woken): the companies list says which
// company waits for a decision; a revision request leaves the company stuck in "revising" until
// the operator wakes the CEO from the Overview; the refiled strategy shows what changed from the
// version before it and the "sent back" banner goes; a budget exhausted then raised elsewhere
// shows and clears without a reload; org chart cards show status, task and spend; Runs and Usage
// are stacked cards at 390px; a German browser reads German dates and numbers; a named
// operator's message carries their name. Screenshots go to packages/web/test-artifacts/.
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot } from "./support/browser.js";
import { type Served, startCadreServe, apiCall } from "./support/serve.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let served: Served;
let browser: Browser;
let desk: BrowserContext;
let page: Page;
const co = { id: "", ceoId: "", ctoId: "" };

const api = <T = any>(method: string, path: string, body?: unknown, token = served.token) =>
  apiCall<T>(served, method, path, body, token);

const V1 = [
  "# Strategy for Glance Co",
  "",
  "## Team",
  "- CTO: builds the robot",
  "",
  "## Plan",
  "Ship in Q3.",
].join("\n");

/** No horizontal scroll anywhere on the page, and none inside the named table's box. */
async function fitsPhone(p: Page, testId: string) {
  expect(await p.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  const box = await p
    .getByTestId(testId)
    .evaluate((t) => ({ scroll: t.parentElement!.scrollWidth, client: t.parentElement!.clientWidth }));
  expect(box.scroll).toBeLessThanOrEqual(box.client);
}

beforeAll(async () => {
  [served, browser] = await Promise.all([startCadreServe(), launchChromium()]);
  desk = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
  page = await desk.newPage();
  page.setDefaultTimeout(20_000);
  await page.goto(served.signInLink);
  await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
  const created = await api("POST", "/api/companies", { name: "Glance Co", goal: "Warehouse robots." });
  co.id = created.body.id;
  co.ceoId = created.body.ceoAgentId;
  // A team and a strategy filed through the legacy HTTP paths, as an agent process would.
  const cto = await api("POST", `/api/companies/${co.id}/agents`, {
    name: "CTO",
    role: "Chief Technology Officer",
    description: "Builds the robot.",
    connectorId: "offline",
    model: "offline-scripted-1",
    department: "engineering",
  });
  expect(cto.status).toBe(201);
  co.ctoId = cto.body.id;
  const filed = await api("POST", `/api/companies/${co.id}/approvals`, {
    type: "approve_ceo_strategy",
    title: "Strategy v1",
    payload: V1,
  });
  expect(filed.status).toBe(201);
  await api("POST", "/api/companies", { name: "Quiet Co" });
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

describe("the companies list and the Overview at a glance", () => {
  it("the list says which company waits for a decision, and the Overview what for", async () => {
    // The companies were made after this page first read the list: read it again.
    await page.reload();
    const item = page.getByTestId("company-item").filter({ hasText: "Glance Co" });
    await expect.poll(() => item.getByTestId("ceo-mode").textContent()).toContain("awaiting-approval");
    const glance = item.getByTestId("company-glance");
    expect(await glance.locator("li").allTextContents()).toEqual([
      "1 decision waiting for you",
      "nothing running",
      "nothing spent today",
    ]);
    const quiet = page.getByTestId("company-item").filter({ hasText: "Quiet Co" });
    expect(await quiet.getByTestId("ceo-mode").textContent()).toContain("team-building");
    expect(await quiet.getByTestId("company-glance").locator("li").first().textContent()).toBe(
      "no decision waiting",
    );
    await screenshot(page, "60-companies-glance-desktop");
    // The decision is one click away.
    await glance.getByRole("link", { name: "1 decision waiting for you" }).click();
    await page.getByTestId("pending-approval").waitFor();
    await page.goto(`${served.url}/#/companies/${co.id}`);
    await expect
      .poll(() => page.getByTestId("waiting-headline").textContent())
      .toBe("Waiting for your decision on “Strategy v1”.");
    await page.getByTestId("waiting-actions").getByRole("link", { name: "Go to Approvals" }).waitFor();
  });

  it("each decision says what it does, in words of its own", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}/approvals`);
    const pending = page.getByTestId("pending-approval");
    const effects = await Promise.all(
      ["approve", "request-revision", "reject"].map((p) => pending.getByTestId(`effect-${p}`).textContent()),
    );
    expect(effects[0]).toMatch(/^Approve: the CEO's mode becomes operating — the strategy stands/);
    expect(effects[1]).toMatch(
      /^Request revision: the CEO's mode becomes revising — the CEO keeps this strategy/,
    );
    expect(effects[2]).toMatch(/^Reject: the CEO's mode becomes revising — this strategy is turned down/);
    // Beyond their names, no two decisions are described alike.
    const tails = effects.map((e) => e!.split(" — ")[1]);
    expect(new Set(tails).size).toBe(3);
    // Each button is described by its own line.
    const described = await pending
      .getByRole("button", { name: "Request revision" })
      .evaluate((b) => document.getElementById(b.getAttribute("aria-describedby")!)?.textContent);
    expect(described).toBe(effects[1]);
  });

  it("a revision request leaves the company stuck until the operator wakes the CEO; the refiled version shows its diff", async () => {
    const pending = page.getByTestId("pending-approval");
    await pending.getByLabel("Note to the CEO (optional)").fill("Name the first customer.");
    await pending.getByRole("button", { name: "Request revision" }).click();
    const outcome = page.getByTestId("decision-outcome");
    await expect.poll(() => outcome.textContent()).toContain("awaiting-approval → revising");

    // A second tab on the Overview: the company is stuck in revising and says what can be done.
    const overview = await desk.newPage();
    overview.setDefaultTimeout(20_000);
    // A tab's sign-in is its own (the token is kept per tab).
    await overview.goto(served.signInLink);
    await overview.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
    await overview.goto(`${served.url}/#/companies/${co.id}`);
    const waiting = overview.getByTestId("waiting-for");
    await expect.poll(() => waiting.getAttribute("data-stuck")).toBe("true");
    // The mode may arrive before the approvals list: the strategy's title follows once it is read.
    await expect
      .poll(() => overview.getByTestId("waiting-headline").textContent())
      .toBe("Stuck in revising: the CEO filed nothing since you sent back “Strategy v1”.");
    expect(await overview.getByTestId("waiting-detail").textContent()).toContain("has not run since");
    // "Write to the CEO" takes the operator to the message box.
    await waiting.getByRole("button", { name: "Write to the CEO" }).click();
    expect(await overview.evaluate(() => document.activeElement?.id)).toBe("thread-text");
    await screenshot(overview, "61-overview-stuck-revising-desktop");
    await overview.setViewportSize(PHONE);
    await waiting.scrollIntoViewIfNeeded();
    expect(await overview.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      PHONE.width,
    );
    await screenshot(overview, "62-overview-stuck-revising-phone", { fullPage: false });
    await overview.setViewportSize(DESKTOP);

    // Waking the CEO from there: it revises and refiles; both tabs follow without a reload.
    await waiting.getByRole("button", { name: "Wake the CEO" }).click();
    await expect
      .poll(() => overview.getByTestId("waiting-headline").textContent(), { timeout: 30_000 })
      .toMatch(/^Waiting for your decision on “/);
    // The banner about the version sent back goes once the CEO refiled.
    await expect.poll(() => outcome.count(), { timeout: 30_000 }).toBe(0);
    const refiled = page.getByTestId("pending-approval");
    const diff = refiled.getByTestId("version-diff");
    await diff.waitFor();
    expect(await diff.getAttribute("open")).not.toBeNull();
    expect(await diff.locator("summary").textContent()).toContain(
      "What changed from the previous version (“Strategy v1”, revision requested)",
    );
    // The diff is the two texts' own: every removed line is a line of v1, every added one of v2.
    const approvals = (await api("GET", `/api/companies/${co.id}/approvals`)).body.items;
    const v2 = approvals.at(-1).payload as string;
    expect(approvals.at(-1).status).toBe("pending");
    const removed = await diff.locator('[data-kind="removed"]').allTextContents();
    const added = await diff.locator('[data-kind="added"]').allTextContents();
    expect(removed.length + added.length).toBeGreaterThan(0);
    for (const r of removed) expect(V1.split("\n")).toContain(r.slice(2));
    for (const a of added) expect(v2.split("\n")).toContain(a.slice(2));
    expect(await diff.getByTestId("diff-summary").textContent()).toMatch(/line/);
    await screenshot(page, "63-strategy-diff-desktop");
    await page.setViewportSize(PHONE);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await diff.scrollIntoViewIfNeeded();
    await screenshot(page, "64-strategy-diff-phone", { fullPage: false });
    await page.setViewportSize(DESKTOP);
    await overview.close();
  });

  it("org chart cards show each agent's status, task and spend", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}`);
    const ceoCard = page.locator(`[data-testid="org-node"][data-agent-id="${co.ceoId}"]`);
    const ctoCard = page.locator(`[data-testid="org-node"][data-agent-id="${co.ctoId}"]`);
    // The CEO ran (its spend is counted), the CTO has not.
    await expect.poll(() => ceoCard.getByTestId("org-status").textContent()).toMatch(/^idle · .* tokens$/);
    expect(await ctoCard.getByTestId("org-status").textContent()).toBe("idle · nothing spent");
    expect(await ctoCard.getByTestId("org-task").textContent()).toBe("no task");
    await screenshot(page, "65-org-chart-work-desktop");
  });

  it("an exhausted budget shows on the Overview and clears when raised elsewhere, without a reload", async () => {
    const used = (await api("GET", `/api/companies/${co.id}/budget`)).body.budget.used;
    expect(used.tokens).toBeGreaterThan(0);
    const notice = page.getByTestId("budget-notice");
    expect(await notice.count()).toBe(0);
    expect((await api("PUT", `/api/companies/${co.id}/budget`, { tokens: used.tokens })).status).toBe(200);
    await expect.poll(() => notice.textContent()).toContain("exhausted");
    await screenshot(page, "66-budget-exhausted-desktop");
    expect((await api("PUT", `/api/companies/${co.id}/budget`, { tokens: used.tokens * 100 })).status).toBe(
      200,
    );
    await expect.poll(() => notice.count()).toBe(0);
    // The list counts the CEO's run as today's spend.
    await page.goto(`${served.url}/#/`);
    await page.reload();
    const glance = page
      .getByTestId("company-item")
      .filter({ hasText: "Glance Co" })
      .getByTestId("company-glance");
    await expect.poll(() => glance.locator("li").nth(2).textContent()).toMatch(/ today \([\d,]+ tokens\)$/);
  });

  it("at 390px Runs and Usage are stacked cards, and a German browser reads German dates and numbers", async () => {
    const phone = await browser.newContext({ viewport: PHONE, isMobile: true, locale: "de-DE" });
    const p = await phone.newPage();
    p.setDefaultTimeout(20_000);
    await p.goto(served.signInLink);
    await p.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
    await p.goto(`${served.url}/#/companies/${co.id}/runs`);
    const table = p.getByTestId("runs-table");
    await table.locator("tbody tr").first().waitFor();
    await fitsPhone(p, "runs-table");
    expect(await table.locator("thead").isVisible()).toBe(false);
    // Each run is a card: its cells stacked, each with its label.
    const started = table.locator('tbody tr td[data-label="Started"]').first();
    const label = await started.evaluate((td) => getComputedStyle(td, "::before").content);
    expect(label).toBe('"Started: "');
    // German short dates (day.month.year) and German thousands separators: the browser's locale.
    expect(await started.textContent()).toMatch(/^\d{2}\.\d{2}\.\d{2}, \d{2}:\d{2}:\d{2}$/);
    const runs = (await api("GET", `/api/companies/${co.id}/runs`)).body.items;
    const total = runs.at(-1).usage;
    const tokens = total.inputTokens + total.outputTokens + total.cacheReadTokens + total.cacheWriteTokens;
    expect(await table.locator('tbody tr td[data-label="Tokens"]').first().textContent()).toBe(
      new Intl.NumberFormat("de-DE").format(tokens),
    );
    await screenshot(p, "67-runs-cards-phone");
    await p.goto(`${served.url}/#/companies/${co.id}/usage`);
    await p.getByTestId("usage-runs").locator("tbody tr").first().waitFor();
    await fitsPhone(p, "usage-runs");
    await fitsPhone(p, "usage-agents");
    await screenshot(p, "68-usage-cards-phone");
    await phone.close();
  });

  it("a named operator's message is shown with their name", async () => {
    const alice = await api("POST", "/api/operators", { name: "alice", role: "operator" });
    expect(alice.status).toBe(201);
    const ctx = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
    const p = await ctx.newPage();
    p.setDefaultTimeout(20_000);
    await p.goto(`${served.url}/#token=${alice.body.token}`);
    await p.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
    await p.goto(`${served.url}/#/companies/${co.id}`);
    const form = p.getByRole("form", { name: "Write to the CEO" });
    await form.getByLabel("Message to the CEO").fill("Where do we stand?");
    await form.getByRole("button", { name: "Send" }).click();
    const first = p.getByTestId("thread").getByTestId("message").first();
    await expect.poll(() => first.getByTestId("message-author").textContent()).toBe("alice (you)");
    // Another operator reads it as alice's, not as "the operator".
    await page.goto(`${served.url}/#/companies/${co.id}`);
    const seen = page.getByTestId("thread").getByTestId("message").first();
    await expect.poll(() => seen.getByTestId("message-author").textContent()).toBe("alice");
    await screenshot(p, "69-thread-named-operator-desktop");
    await ctx.close();
  });
});
