// The dashboard end to end: Debian's Chromium against a real `cadre serve` (the built bin, a fresh
// data directory, the offline connector). The tests run in order and share one company: sign in
// from the printed link, create the company, start team building and watch the hires land in the
// org chart, read the run, approve the strategy with a note (→ operating), reload, read usage, a
// phone-width view, an evaluation report, and a wrong token. Each test saves a screenshot under
// packages/web/test-artifacts/.
import { fileURLToPath } from "node:url";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot } from "./support/browser.js";
import { type Served, startCadreServe } from "./support/serve.js";

const REPORT = fileURLToPath(new URL("../model/__fixtures__/eval-report.json", import.meta.url));
const DESKTOP = { width: 1280, height: 800 };

let served: Served;
let browser: Browser;
let context: BrowserContext;
let page: Page;
/** Filled in by the tests as the story goes on. */
const story = { companyId: "", runId: "" };

/** A GET's answer; a list's page (`{ items, nextCursor }`, one page holds these small lists) as its items. */
async function api<T>(path: string): Promise<T> {
  const r = await fetch(`${served.url}${path}`, { headers: { authorization: `Bearer ${served.token}` } });
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  const body = (await r.json()) as { items?: unknown; nextCursor?: unknown };
  if (Array.isArray(body.items) && "nextCursor" in body) {
    if (body.nextCursor !== null) throw new Error(`${path}: more than one page`);
    return body.items as T;
  }
  return body as T;
}

beforeAll(async () => {
  [served, browser] = await Promise.all([startCadreServe(), launchChromium()]);
  context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  page.setDefaultTimeout(15_000);
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

describe("operator dashboard", () => {
  it("signs in from the link `cadre serve` printed and takes the token out of the address bar", async () => {
    expect(served.signInLink).toBe(`${served.url}/#token=${served.token}`);
    await page.goto(served.signInLink);
    await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
    expect(page.url()).not.toContain("token");
    expect(page.url()).not.toContain(served.token);
    expect(await page.evaluate(() => sessionStorage.getItem("cadre.operatorToken"))).toBe(served.token);
    await screenshot(page, "01-signed-in");
  });

  it("creates a company (name, goal) and opens it in team building, with its CEO and a ready connector", async () => {
    await page.getByLabel("Name").fill("Northwind Robotics");
    await page.getByLabel("Goal").fill("Build warehouse robots and sell them to logistics companies.");
    await page.getByRole("button", { name: "Create company" }).click();
    await page.getByRole("heading", { name: "Northwind Robotics", level: 1 }).waitFor();
    story.companyId = /#\/companies\/([\w-]+)/.exec(page.url())![1]!;
    await expect.poll(() => page.getByTestId("org-node").count()).toBe(1);
    // Each part of the overview loads on its own (a loaded machine answers them in any order).
    await expect.poll(() => page.getByTestId("ceo-mode").first().textContent()).toContain("team-building");
    await expect
      .poll(() => page.getByTestId("ceo-mode-reason").textContent())
      .toContain("no active direct reports");
    await expect.poll(() => page.getByTestId("connectors").textContent()).toMatch(/offline[\s\S]*ready/);
    await screenshot(page, "02-company-created");
  });

  it("starts team building: the hires land in the org chart live, and the mode moves on with its reason", async () => {
    // Records the org chart's size after every change to it, in the page.
    await page.evaluate(() => {
      const sizes: number[] = [];
      (window as unknown as { orgSizes: number[] }).orgSizes = sizes;
      const chart = document.querySelector('[data-testid="org-chart"]')!;
      const record = () => {
        const n = chart.querySelectorAll('[data-testid="org-node"]').length;
        if (sizes.at(-1) !== n) sizes.push(n);
      };
      record();
      new MutationObserver(record).observe(chart, { childList: true, subtree: true });
    });
    await page.getByRole("button", { name: "Start team building" }).click();
    await expect
      .poll(() => page.getByTestId("ceo-mode").first().textContent(), { timeout: 30_000 })
      .toContain("awaiting-approval");
    const runs = await api<Array<{ id: string; trigger: string; status: string }>>(
      `/api/companies/${story.companyId}/runs`,
    );
    expect(runs.map((r) => r.trigger)).toEqual(["start_team_building"]);
    story.runId = runs[0]!.id;
    // The run ended: no banner says it is running, and team building is no longer offered.
    await expect.poll(() => page.getByTestId("run-running").count()).toBe(0);
    expect(await page.getByRole("button", { name: "Start team building" }).count()).toBe(0);

    const agents = await api<Array<{ id: string; name: string; isCeo: boolean; via: string }>>(
      `/api/companies/${story.companyId}/agents`,
    );
    const hires = agents.filter((a) => !a.isCeo);
    expect(hires.length).toBeGreaterThanOrEqual(2);
    expect(hires.every((h) => h.via === "tool")).toBe(true);
    await expect.poll(() => page.getByTestId("org-node").count()).toBe(agents.length);
    const chart = await page.getByTestId("org-chart").textContent();
    for (const hire of hires) expect(chart).toContain(hire.name);
    expect(chart).toContain("via hire_agent");
    expect(chart).toContain("offline · offline-scripted-1");
    // Grown in place from the event stream (the page was never reloaded) and never shrinking. The
    // offline model makes its hires within a few milliseconds, which the server sends as one
    // burst; the test after the approval lands hires one at a time.
    const sizes = await page.evaluate(() => (window as unknown as { orgSizes: number[] }).orgSizes);
    expect(sizes[0]).toBe(1);
    expect(sizes.at(-1)).toBe(agents.length);
    expect([...sizes].sort((a, b) => a - b)).toEqual(sizes);
    expect(await page.getByTestId("ceo-mode-reason").textContent()).toContain(
      "pending the operator's decision",
    );
    // The tools of the new mode come from re-reading the company after the event: while it waits
    // for the decision, the CEO can only answer the operator.
    await expect
      .poll(() => page.getByTestId("mode-tools").textContent())
      .toContain("Company tools in this mode: reply_to_operator (");
    await screenshot(page, "03-team-built");
  });

  it("shows the run: the cue, streamed text, each tool call with its arguments and result, the terminal state", async () => {
    await page.getByRole("link", { name: "Runs", exact: true }).click();
    await page.getByRole("link", { name: story.runId }).click();
    await page.getByTestId("run-terminal").waitFor();
    expect(await page.getByTestId("run-state").textContent()).toBe("done");
    expect(await page.getByTestId("run-cue").textContent()).toContain("You are the CEO");
    const events = page.getByTestId("run-events");
    // The view follows the end of a live run; the last text is the CEO's closing words.
    const stored = await api<{ events: Array<{ type: string; data: { text?: string } }> }>(
      `/api/runs/${story.runId}/events`,
    );
    const lastText = stored.events.filter((e) => e.type === "text_end").at(-1)!.data.text!;
    expect(await events.textContent()).toContain(lastText);
    // The stored events and the folded view agree: nothing lost, nothing repeated.
    expect(await page.getByTestId("run-event-count").textContent()).toBe(String(stored.events.length));
    await events.evaluate((el) => el.scrollTo(0, 0));
    const firstTool = page.getByTestId("tool-call").first();
    // A hire reads as a hire card; its raw arguments and result are under its "details" fold.
    await expect.poll(() => firstTool.getAttribute("data-kind")).toBe("hire");
    expect(await firstTool.locator(".tool-head").textContent()).toMatch(/Hire\s*done/);
    expect(await firstTool.getByTestId("hire-card").innerText()).toMatch(/ — /);
    expect(await firstTool.textContent()).toContain('"connectorId": "offline"');
    expect(await firstTool.textContent()).toContain('"agentId"');
    await page.getByTestId("cache-chart").locator("canvas").first().waitFor();
    await screenshot(page, "04-run-view");
  });

  it("shows the API's refusal where the button is: a member cannot work before the strategy is approved", async () => {
    await page.goto(`${served.url}/#/companies/${story.companyId}`);
    const table = page.getByTestId("team-table");
    const member = table.locator("tbody tr").nth(1);
    const nameWidth = async () => (await table.locator("thead th").first().boundingBox())!.width;
    const before = await nameWidth();
    await member.getByRole("button", { name: /^Wake / }).click();
    // The refusal is a row of its own under the agent, across the table: the columns keep their widths.
    const error = page.getByTestId("wake-error");
    await expect.poll(() => error.getByRole("alert").textContent()).toContain("strategy is not approved");
    expect(await error.locator("td").getAttribute("colspan")).toBe("6");
    expect(Math.abs((await nameWidth()) - before)).toBeLessThan(1);
    await screenshot(page, "05-wake-refused");
  });

  it("approves the strategy with a note from the inbox; the CEO's mode becomes operating", async () => {
    await page.goto(`${served.url}/#/companies/${story.companyId}/approvals`);
    const pending = page.getByTestId("pending-approval");
    await expect.poll(() => pending.count()).toBe(1);
    expect(await pending.textContent()).toContain("filed by CEO via file_approval");
    await pending.getByLabel("Note to the CEO (optional)").fill("Ship it, but hire finance next.");
    await pending.getByRole("button", { name: "Approve" }).click();
    const outcome = page.getByTestId("decision-outcome");
    await outcome.waitFor();
    expect(await outcome.textContent()).toContain("awaiting-approval → operating");
    await expect.poll(() => page.getByTestId("ceo-mode").first().textContent()).toContain("operating");
    const approvals = await api<Array<{ status: string; decisionNote: string }>>(
      `/api/companies/${story.companyId}/approvals`,
    );
    expect(approvals).toEqual([
      expect.objectContaining({ status: "approved", decisionNote: "Ship it, but hire finance next." }),
    ]);
    await screenshot(page, "05-approved-operating");
  });

  it("the approved company goes to work by itself: the Tasks board fills and every lead's task ends done", async () => {
    await page.goto(`${served.url}/#/companies/${story.companyId}/tasks`);
    const done = page.getByTestId("column-done").getByTestId("task-card");
    // `cadre serve` looks for due work every few seconds: the CEO delegates, each lead works its task.
    await expect.poll(() => done.count(), { timeout: 90_000 }).toBeGreaterThanOrEqual(3);
    await expect
      .poll(
        async () => {
          const r = await fetch(
            `${served.url}/api/companies/${story.companyId}/wake-requests?status=pending`,
            {
              headers: { authorization: `Bearer ${served.token}` },
            },
          );
          const runs = await fetch(`${served.url}/api/companies/${story.companyId}/runs`, {
            headers: { authorization: `Bearer ${served.token}` },
          });
          const pending = ((await r.json()) as { items: unknown[] }).items;
          const running = ((await runs.json()) as { items: Array<{ status: string }> }).items.filter(
            (x) => x.status === "running",
          );
          return pending.length + running.length;
        },
        { timeout: 90_000 },
      )
      .toBe(0);
    expect(await page.getByTestId("column-todo").getByTestId("task-card").count()).toBe(0);
    await done.first().getByText("Details", { exact: true }).click();
    expect(await done.first().locator(".deliverable").textContent()).toContain("Plan for");
    await screenshot(page, "05b-tasks-done");
    // The run view says what the lead's task tool calls did.
    await page.goto(`${served.url}/#/companies/${story.companyId}/runs`);
    const leadRun = page
      .getByTestId("runs-table")
      .locator("tbody tr")
      .filter({ hasText: "task assigned" })
      .first();
    await leadRun.getByRole("link").click();
    await page.getByTestId("run-terminal").waitFor();
    // (Only the rows in view exist; any task call in view says what it did, the task named and linked.)
    const effect = page
      .getByTestId("task-effect")
      .filter({ has: page.getByTestId("task-link") })
      .first();
    await expect.poll(() => effect.textContent()).toMatch(/ → (in progress|in review|done)/);
    expect(await effect.getByTestId("task-link").getAttribute("href")).toMatch(
      new RegExp(`^#/companies/${story.companyId}/tasks/task_\\w+$`),
    );
    // The company's own pace (hand-ins, then the CEO's review) sets how long this takes, not the page.
  }, 180_000);

  it("each later hire lands in the org chart as it is made, one at a time", async () => {
    await page.goto(`${served.url}/#/companies/${story.companyId}`);
    const nodes = page.getByTestId("org-node");
    await nodes.first().waitFor();
    const before = await nodes.count();
    // Hires through the legacy HTTP path (C4-6), as an agent process would make them.
    for (const [i, [name, department]] of [
      ["Head of Finance", "finance"],
      ["Legal Counsel", "legal"],
    ].entries()) {
      const r = await fetch(`${served.url}/api/companies/${story.companyId}/agents`, {
        method: "POST",
        headers: { authorization: `Bearer ${served.token}`, "content-type": "application/json" },
        body: JSON.stringify({
          name,
          role: name,
          description: "Leads the function.",
          connectorId: "offline",
          model: "offline-scripted-1",
          department,
        }),
      });
      expect(r.status).toBe(201);
      await expect.poll(() => nodes.count()).toBe(before + i + 1);
      expect(await page.getByTestId("org-chart").textContent()).toContain(name);
    }
    expect(await page.getByTestId("org-chart").textContent()).toContain("via legacy HTTP");
    await screenshot(page, "06-hires-landed");
  });

  it("wakes any agent and follows its run to the end", async () => {
    await page.getByRole("button", { name: "Wake Head of Finance" }).click();
    const finance = async () => {
      const agents = await api<Array<{ id: string; name: string }>>(
        `/api/companies/${story.companyId}/agents`,
      );
      const id = agents.find((a) => a.name === "Head of Finance")!.id;
      const runs = await api<Array<{ id: string; agentId: string; status: string }>>(
        `/api/companies/${story.companyId}/runs`,
      );
      return runs.find((r) => r.agentId === id);
    };
    await expect.poll(async () => (await finance())?.status, { timeout: 30_000 }).toBe("done");
    const run = (await finance())!;
    // Ended, so no longer announced as running; the Runs tab leads to it.
    await expect.poll(() => page.getByTestId("run-running").count()).toBe(0);
    await page.getByRole("link", { name: "Runs", exact: true }).click();
    await page.getByRole("link", { name: run.id }).click();
    await page.getByTestId("run-terminal").waitFor();
    expect(await page.getByTestId("run-state").textContent()).toBe("done");
    expect(await page.getByTestId("run-cue").textContent()).not.toBe("");
  });

  it("a reload keeps the session (and the place), with the token still out of the URL", async () => {
    await page.goto(`${served.url}/#/companies/${story.companyId}`);
    await page.reload();
    await page.getByRole("heading", { name: "Northwind Robotics", level: 1 }).waitFor();
    expect(await page.getByTestId("ceo-mode").first().textContent()).toContain("operating");
    expect(await page.getByTestId("ceo-mode-reason").textContent()).toContain("approved");
    expect(page.url()).not.toContain("token");
    await screenshot(page, "07-after-reload");
  });

  it("reads usage per agent and per run (tokens, cost) and charts the cache hit rate per model call", async () => {
    await page.goto(`${served.url}/#/companies/${story.companyId}/usage`);
    const report = await api<{ usage: { total: number }; runs: Array<{ runId: string }> }>(
      `/api/companies/${story.companyId}/usage`,
    );
    await page.getByTestId("usage-total").waitFor();
    expect(await page.getByTestId("usage-total").textContent()).toContain(
      new Intl.NumberFormat("en-US").format(report.usage.total),
    );
    expect(await page.getByTestId("usage-agents").textContent()).toContain("CEO");
    expect(await page.getByTestId("usage-runs").textContent()).toContain(story.runId);
    expect(await page.getByTestId("usage-runs").textContent()).toMatch(/\$\d/);
    await page.getByTestId("cache-chart").locator("canvas").first().waitFor();
    // Before any hover the legend shows the last call's figures, not uPlot's empty "--".
    const legend = page.getByTestId("cache-chart").locator(".u-legend .u-value");
    await expect
      .poll(() => legend.allTextContents())
      .toEqual([
        expect.stringMatching(/^#\d+$/),
        expect.stringMatching(/^\d+(\.\d+)?%$/),
        expect.stringMatching(/^\d+(\.\d+)?%$/),
      ]);
    await screenshot(page, "08-usage");
  });

  it("every control is labelled and reachable by keyboard", async () => {
    await page.goto(`${served.url}/#/companies/${story.companyId}`);
    await page.getByTestId("org-chart").waitFor();
    const unlabelled = await page.evaluate(() =>
      [...document.querySelectorAll("button, input, select, textarea, a[href]")]
        .filter((el) => {
          const e = el as HTMLElement;
          const byFor = e.id ? document.querySelector(`label[for="${e.id}"]`)?.textContent : "";
          return !(e.getAttribute("aria-label") || byFor || e.textContent?.trim());
        })
        .map((el) => el.outerHTML.slice(0, 80)),
    );
    expect(unlabelled).toEqual([]);
    // Tab from the top of the page reaches the CEO's wake button (operating: no team-building trigger).
    await page.locator("body").focus();
    let reached = false;
    for (let i = 0; i < 40 && !reached; i++) {
      await page.keyboard.press("Tab");
      reached = await page.evaluate(() => document.activeElement?.getAttribute("aria-label") === "Wake CEO");
    }
    expect(reached).toBe(true);
  });

  it("works at a narrow phone width: the org chart becomes an outline and nothing overflows sideways", async () => {
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      isMobile: true,
      hasTouch: true,
    });
    try {
      const p = await phone.newPage();
      p.setDefaultTimeout(15_000);
      await p.goto(`${served.url}/#token=${served.token}`);
      await p.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
      await p.goto(`${served.url}/#/companies/${story.companyId}`);
      await p.getByTestId("org-node").first().waitFor();
      expect(await p.getByTestId("org-chart").getAttribute("data-shape")).toBe("outline");
      expect(
        await p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      ).toBe(true);
      await screenshot(p, "09-phone");
    } finally {
      await phone.close();
    }
  });

  it("opens an evaluation report.json as tables and charts", async () => {
    await page.goto(`${served.url}/#/eval`);
    await page.getByLabel(/Open a report\.json/).setInputFiles(REPORT);
    // The fixture is a real offline run: no gate failed, behaviour not measured (never "all gates pass").
    expect(await page.getByTestId("eval-verdict").textContent()).toBe(
      "no gate failed; behaviour not measured (scripted)",
    );
    expect(await page.getByTestId("eval-gates").locator("tbody tr").count()).toBe(5);
    expect(await page.getByTestId("eval-scenarios").locator("tbody tr").count()).toBe(16);
    for (const chart of ["eval-hires-chart", "eval-cache-chart"])
      expect(await page.getByTestId(chart).locator("svg text.bar-name").count()).toBe(16);
    await screenshot(page, "10-eval-report");
  });

  it("a wrong token shows a clear sign-in error and is not kept", async () => {
    const other = await browser.newContext({ viewport: DESKTOP });
    try {
      const p = await other.newPage();
      await p.goto(`${served.url}/#token=cadre_op_not-the-right-token-000000000000000`);
      const error = p.getByTestId("sign-in-error");
      await error.waitFor();
      // One sentence, the server's reason once in parentheses (never doubled), and what to do.
      expect(await error.textContent()).toMatch(
        /^Sign-in failed: the server did not accept this token \([^()]+\)\. Open the sign-in link that cadre serve printed most recently — a restarted server has a new token, and a revoked operator's no longer works\.$/,
      );
      expect(p.url()).not.toContain("not-the-right-token");
      expect(await p.evaluate(() => sessionStorage.getItem("cadre.operatorToken"))).toBeNull();
      await screenshot(p, "11-wrong-token");
    } finally {
      await other.close();
    }
  });
});
