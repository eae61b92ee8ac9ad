// The operator's daily surfaces in Debian's Chromium against a real `cadre serve`: the actions a
// mode offers (walked through all five modes, checked against the API view the page renders), a
// run banner that follows the company feed and clears itself, a filed strategy rendered as
// sanitised markdown — a hostile one included — and a phone-width layout that keeps every tab in
// reach. Every check is on what a person sees; screenshots go to packages/web/test-artifacts/.
import { join } from "node:path";
import { createCompany } from "@cadre/company";
import { loadUserModels } from "@cadre/core";
import { openStore } from "@cadre/store";
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot } from "./support/browser.js";
import { declareHeldModel, HELD_MODEL, type HeldModel, startHeldModel } from "./support/held-model.js";
import { type Served, startCadreServe } from "./support/serve.js";

const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

let served: Served;
let held: HeldModel;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** A company whose CEO runs on the held stand-in (made before the server starts). */
let heldCompany: { id: string; ceoId: string };
const story = { companyId: "", ceoId: "" };

async function api<T = any>(
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const r = await fetch(`${served.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${served.token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: (await r.json()) as T };
}

const HOSTILE_STRATEGY = [
  "# Strategy for Acme",
  "",
  "## Team",
  "- **CTO**: builds the robot",
  "- *CRO*: sells it",
  "",
  "<script>window.__pwned = 'script'</script>",
  '<img src="x" onerror="window.__pwned = \'img\'">',
  "<a href=\"javascript:window.__pwned='html-link'\">raw html link</a>",
  "",
  "[a javascript link](javascript:window.__pwned='md-link') and [the docs](https://example.com/docs)",
  "",
  "1. First milestone",
  "2. Second milestone",
].join("\n");

beforeAll(async () => {
  held = await startHeldModel();
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-web-surfaces-"));
  await declareHeldModel(dataDir);
  await loadUserModels({ dataDir, env: {} });
  const store = await openStore({ path: join(dataDir, "cadre.db") });
  try {
    const company = await createCompany(store, {
      name: "Held Co",
      goal: "Build warehouse robots.",
      connectors: [
        { kind: "openai-compatible", config: { baseUrl: held.baseUrl }, enabledModels: [HELD_MODEL] },
      ],
      ceoConnectorId: "openai-compatible",
    });
    heldCompany = { id: company.id, ceoId: (await store.listAgents(company.id)).find((a) => a.isCeo)!.id };
  } finally {
    await store.close();
  }
  [served, browser] = await Promise.all([startCadreServe({ dataDir }), launchChromium()]);
  context = await browser.newContext({ viewport: DESKTOP });
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

/** The overview shows the mode the API shows, its tools line, and exactly the actions it offers. */
async function expectOverviewOffers(mode: string) {
  await expect.poll(() => page.getByTestId("ceo-mode").first().textContent()).toContain(mode);
  const view = (await api<any>("GET", `/api/companies/${story.companyId}`)).body;
  expect(view.ceoMode).toBe(mode);
  const refused = view.toolsOffered.filter((t: string) => !view.toolsInMode.includes(t));
  const toolsLine =
    view.toolsInMode.length === 0
      ? "none (waiting for the operator)"
      : `${view.toolsInMode.join(", ")}${refused.length > 0 ? ` (${refused.join(", ")} is refused in this mode)` : ""}`;
  await expect
    .poll(() => page.getByTestId("mode-tools").textContent())
    .toBe(`Company tools in this mode: ${toolsLine}.`);
  const start = page.getByRole("button", { name: "Start team building" });
  const decide = page.getByRole("link", { name: "Decide the strategy" });
  await expect.poll(() => start.count()).toBe(view.operatorActions.includes("start_team_building") ? 1 : 0);
  await expect.poll(() => decide.count()).toBe(view.operatorActions.includes("decide_strategy") ? 1 : 0);
  await screenshot(page, `21-mode-${mode}`);
}

describe("the operator's surfaces in every mode", () => {
  it("offers in each of the five modes only what can succeed, following the feed without a reload", async () => {
    const created = await api<any>("POST", "/api/companies", {
      name: "Acme Robotics",
      goal: "Warehouse robots.",
    });
    story.companyId = created.body.id;
    story.ceoId = created.body.ceoAgentId;
    await page.goto(`${served.url}/#/companies/${story.companyId}`);
    await expectOverviewOffers("team-building");

    // Hire and file through the legacy HTTP paths, as an agent process would: the page follows.
    const hire = await api("POST", `/api/companies/${story.companyId}/agents`, {
      name: "CTO",
      role: "Chief Technology Officer",
      description: "Builds the robot.",
      connectorId: "offline",
      model: "offline-scripted-1",
      department: "engineering",
    });
    expect(hire.status).toBe(201);
    await expectOverviewOffers("strategy-drafting");

    const filed = await api<any>("POST", `/api/companies/${story.companyId}/approvals`, {
      type: "approve_ceo_strategy",
      title: "Strategy for Acme",
      payload: HOSTILE_STRATEGY,
    });
    expect(filed.status).toBe(201);
    await expectOverviewOffers("awaiting-approval");
    expect(await page.getByTestId("run-running").count()).toBe(0);
  });

  it("renders the pending strategy as formatted text with nothing that runs, and says what each decision does", async () => {
    await page.getByRole("link", { name: "Decide the strategy" }).click();
    const pending = page.getByTestId("pending-approval");
    await expect.poll(() => pending.count()).toBe(1);
    const text = pending.getByTestId("approval-text");
    expect(await text.locator("h1").textContent()).toBe("Strategy for Acme");
    expect(await text.locator("h2").textContent()).toBe("Team");
    expect(await text.locator("ul li strong").textContent()).toBe("CTO");
    expect(await text.locator("ol li").count()).toBe(2);
    // Raw HTML is shown as text, never made into elements; javascript: links are not links.
    expect(await text.locator("script, img, iframe, [onerror]").count()).toBe(0);
    expect(await text.textContent()).toContain("<script>window.__pwned = 'script'</script>");
    const links = text.locator("a");
    expect(await links.count()).toBe(1);
    expect(await links.first().getAttribute("href")).toBe("https://example.com/docs");
    expect(await links.first().getAttribute("rel")).toBe("noopener noreferrer nofollow");
    expect(await text.textContent()).toContain("[a javascript link](javascript:window.__pwned='md-link')");
    expect(await page.evaluate(() => (window as unknown as { __pwned?: string }).__pwned)).toBeUndefined();
    // Before deciding: what each decision does to the CEO's mode.
    const effects = pending.getByTestId("decision-effects");
    expect(await effects.textContent()).toContain("Approve: the CEO's mode becomes operating");
    expect(await effects.textContent()).toContain("Reject: the CEO's mode becomes revising");
    expect(await effects.textContent()).toContain("Request revision: the CEO's mode becomes revising");
    // The whole strategy is on the page: no clipped box with its own scroll bar.
    const clip = await text.evaluate((el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(clip.scroll).toBeLessThanOrEqual(clip.client + 1);
    await screenshot(page, "22-strategy-pending");
  });

  it("decides from the keyboard: focus stays in the form while typing and moves to what the decision did", async () => {
    const pending = page.getByTestId("pending-approval");
    const note = pending.getByLabel("Note to the CEO (optional)");
    await note.focus();
    await page.keyboard.type("Too vague: ");
    // A live update arrives while the note is typed (a connector added elsewhere: the page re-reads
    // the company's connectors and re-renders); the note keeps its focus and its text.
    const reread = page.waitForResponse((r) =>
      r.url().endsWith(`/api/companies/${story.companyId}/connectors`),
    );
    const added = await api("POST", `/api/companies/${story.companyId}/connectors`, {
      kind: "anthropic",
      config: { apiKeyEnv: "MY_ANTHROPIC_KEY" },
    });
    expect(added.status).toBe(201);
    await reread;
    await page.keyboard.type("name the first customer.");
    expect(await page.evaluate(() => document.activeElement?.id)).toMatch(/^note-/);
    expect(await note.inputValue()).toBe("Too vague: name the first customer.");
    await pending.getByRole("button", { name: "Reject" }).focus();
    await page.keyboard.press("Enter");
    const outcome = page.getByTestId("decision-outcome");
    await outcome.waitFor();
    expect(await outcome.textContent()).toContain("awaiting-approval → revising");
    expect(await page.evaluate(() => document.activeElement?.getAttribute("data-testid"))).toBe(
      "decision-outcome",
    );
    // The decided approval keeps its whole text, rendered, with the decision, the note and who decided.
    const decided = page.getByTestId("decided-approval");
    await expect.poll(() => decided.count()).toBe(1);
    expect(await decided.getByTestId("decision").textContent()).toMatch(/^rejected by the operator · /);
    expect(await decided.getByTestId("decision-note").textContent()).toBe(
      "Note: Too vague: name the first customer.",
    );
    expect(await decided.getByTestId("approval-text").locator("h1").textContent()).toBe("Strategy for Acme");
    expect(await decided.getByTestId("approval-text").locator("script, img").count()).toBe(0);
    await screenshot(page, "23-strategy-decided");
  });

  it("goes on through revising to operating, offering only what each mode allows", async () => {
    await page.getByRole("link", { name: "Overview", exact: true }).click();
    await expectOverviewOffers("revising");
    const filed = await api<any>("POST", `/api/companies/${story.companyId}/approvals`, {
      type: "approve_ceo_strategy",
      title: "Strategy for Acme, revised",
      payload: "# Revised\n\nFirst customer: **Northwind Logistics**.",
    });
    expect(filed.status).toBe(201);
    await expectOverviewOffers("awaiting-approval");
    expect((await api("POST", `/api/approvals/${filed.body.id}/approve`, { note: "Go." })).status).toBe(200);
    await expectOverviewOffers("operating");
    // Operating adds the task tools: the overview names them, file_approval refused.
    expect(await page.getByTestId("mode-tools").textContent()).toBe(
      "Company tools in this mode: hire_agent, create_task, assign_task, update_task, list_my_tasks, reply_to_operator, review_task (file_approval is refused in this mode).",
    );
  });
});

describe("the run banner follows the company feed", () => {
  it("shows a run while it runs and clears itself when it ends, for a run started here or elsewhere", async () => {
    await page.goto(`${served.url}/#/companies/${heldCompany.id}`);
    await page.getByRole("button", { name: "Start team building" }).click();
    const banner = page.getByTestId("run-running");
    await expect.poll(() => banner.count()).toBe(1);
    expect(await banner.textContent()).toMatch(
      /^CEO is running: run run_\w+ \(start team building, woken in team-building\)\. Watch it live$/,
    );
    await held.requested(1);
    // While the CEO runs, a second wake would be refused: neither trigger is offered.
    await expect.poll(() => page.getByRole("button", { name: "Start team building" }).count()).toBe(0);
    expect(await page.getByRole("button", { name: "CEO is running" }).isDisabled()).toBe(true);
    await screenshot(page, "24-run-running");
    held.release();
    // The run ended (the stand-in answered with text only, no hire): the banner is gone by itself,
    // and team building is offered again.
    await expect.poll(() => banner.count()).toBe(0);
    await expect.poll(() => page.getByRole("button", { name: "Start team building" }).count()).toBe(1);
    const runs = (
      await api<{ items: Array<{ status: string }> }>("GET", `/api/companies/${heldCompany.id}/runs`)
    ).body.items;
    expect(runs.map((r) => r.status)).toEqual(["done"]);

    // A run started by someone else (the API, here) appears from the feed, and leaves with it.
    held.hold();
    const woken = await api<{ runId: string }>("POST", `/api/agents/${heldCompany.ceoId}/wake`, {});
    expect(woken.status).toBe(202);
    await expect.poll(() => banner.textContent()).toContain(woken.body.runId);
    held.release();
    await expect.poll(() => banner.count()).toBe(0);
    await screenshot(page, "25-run-ended");
  });
});

describe("at phone width", () => {
  it("keeps every tab and the main nav in view, on one screen width, and the strategy readable", async () => {
    const phone = await browser.newContext({ viewport: PHONE, isMobile: true, hasTouch: true });
    try {
      const p = await phone.newPage();
      p.setDefaultTimeout(15_000);
      const missing: string[] = [];
      p.on("response", (r) => {
        if (r.status() === 404) missing.push(r.url());
      });
      await p.goto(`${served.url}/#token=${served.token}`);
      await p.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
      await p.goto(`${served.url}/#/companies/${story.companyId}`);
      await p.getByTestId("org-node").first().waitFor();
      const inView = async (name: string, scope: ReturnType<Page["getByRole"]>) => {
        const box = await scope.getByRole("link", { name, exact: true }).boundingBox();
        expect(box, name).not.toBeNull();
        expect(box!.x, name).toBeGreaterThanOrEqual(0);
        expect(box!.x + box!.width, name).toBeLessThanOrEqual(PHONE.width);
      };
      const tabs = p.getByRole("navigation", { name: "Company sections" });
      const TABS = ["Overview", "Tasks", "Connectors", "Runs", "Approvals", "Usage", "Audit"];
      // Every tab the company page has (a new one must be added here), each whole on the screen.
      expect(await tabs.getByRole("link").count()).toBe(TABS.length);
      for (const name of TABS) await inView(name, tabs);
      const main = p.getByRole("navigation", { name: "Main" });
      for (const name of ["Companies", "Evaluation report"]) await inView(name, main);
      // The header's links sit on one row.
      const tops = await Promise.all(
        ["Companies", "Evaluation report"].map(
          async (n) => (await main.getByRole("link", { name: n }).boundingBox())!.y,
        ),
      );
      expect(tops[0]).toBe(tops[1]);
      expect(
        await p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      ).toBe(true);
      await screenshot(p, "26-phone-overview", { fullPage: false });
      await tabs.getByRole("link", { name: "Usage", exact: true }).click();
      await p.getByTestId("usage-total").waitFor();
      await tabs.getByRole("link", { name: "Approvals", exact: true }).click();
      const decided = p.getByTestId("decided-approval");
      await expect.poll(() => decided.count()).toBe(2);
      expect(
        await p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      ).toBe(true);
      await screenshot(p, "27-phone-approvals");
      // The favicon is served: the page asked for nothing that is not there.
      expect(await p.locator('link[rel="icon"]').getAttribute("href")).toBe("./favicon.svg");
      const icon = await fetch(`${served.url}/favicon.svg`);
      expect([icon.status, icon.headers.get("content-type")]).toEqual([200, "image/svg+xml"]);
      expect(missing).toEqual([]);
    } finally {
      await phone.close();
    }
  });
});
