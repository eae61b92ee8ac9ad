// Spend against budget in the dashboard, in Debian's Chromium against a real `cadre
// serve`: two companies whose CEOs run on the loopback stand-in model server (OFFLINE, the OpenAI
// wire), one on a model declared with a price, one on a model declared without. After real runs,
// the priced company's budget is set so it is warned and its CEO's own budget so it is exhausted;
// the Usage tab shows each, per company and per agent, with the figures the API reports. The
// unpriced company shows its spend as unknown (never $0) and warns that its USD limit cannot be
// trusted, and follows a new run without a reload. Screenshots go to packages/web/test-artifacts/.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany } from "@cadre/company";
import { loadUserModels } from "@cadre/core";
import { echo, startStandin, type StandinServer } from "@cadre/standin";
import { openStore } from "@cadre/store";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatCost, formatDate } from "../model/format.js";
import { launchChromium, screenshot, screenshotOf } from "./support/browser.js";
import { type Served, startCadreServe } from "./support/serve.js";

const PRICED = "priced-stand-in-1b";
const UNPRICED = "unpriced-stand-in-1b";

let served: Served;
let browser: Browser;
let page: Page;
let standin: StandinServer;
const priced = { id: "", ceoId: "", memberId: "" };
const unpriced = { id: "", ceoId: "" };

async function api<T = any>(method: string, path: string, body?: unknown): Promise<T> {
  const r = await fetch(`${served.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${served.token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

/** Wakes the agent and waits for its run to end. */
async function wakeToEnd(agentId: string, companyId: string): Promise<void> {
  const { runId } = await api<{ runId: string }>("POST", `/api/agents/${agentId}/wake`, {});
  await expect
    .poll(
      async () =>
        (
          await api<{ items: Array<{ id: string; status: string }> }>(
            "GET",
            `/api/companies/${companyId}/runs`,
          )
        ).items.find((r) => r.id === runId)?.status,
      { timeout: 30_000 },
    )
    .toBe("done");
}

beforeAll(async () => {
  standin = await startStandin({ policy: echo });
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-web-budget-"));
  // As a user declares local models: one with a (deliberately high) price, one without.
  const window = { contextWindow: 128_000, maxOutput: 4096 };
  await writeFile(
    join(dataDir, "cadre.config.json"),
    JSON.stringify({
      models: [
        { id: PRICED, ...window, price: { input: 100, output: 100, cacheRead: 10, cacheWrite: 100 } },
        { id: UNPRICED, ...window },
      ],
    }),
  );
  await loadUserModels({ dataDir, env: {} });
  const store = await openStore({ path: join(dataDir, "cadre.db") });
  try {
    for (const [target, model, name] of [
      [priced, PRICED, "Priced Co"],
      [unpriced, UNPRICED, "Unpriced Co"],
    ] as const) {
      const company = await createCompany(store, {
        name,
        goal: "Build warehouse robots.",
        connectors: [
          {
            kind: "openai-compatible",
            config: { baseUrl: standin.openaiBaseUrl },
            enabledModels: [model],
          },
        ],
        ceoConnectorId: "openai-compatible",
      });
      target.id = company.id;
      target.ceoId = (await store.listAgents(company.id)).find((a) => a.isCeo)!.id;
    }
  } finally {
    await store.close();
  }
  [served, browser] = await Promise.all([startCadreServe({ dataDir }), launchChromium()]);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(served.signInLink);
  await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
  await standin?.close();
});

const agentRow = (id: string) => page.getByTestId("budget-agents").locator(`tr[data-agent="${id}"]`);

describe("spend against budget", () => {
  it("a warned company and an exhausted agent: the figures the API reports, with the state in words", async () => {
    await wakeToEnd(priced.ceoId, priced.id);
    const member = await api<{ id: string }>("POST", `/api/companies/${priced.id}/agents`, {
      name: "Head of Sales",
      role: "Head of Sales",
      description: "Sells the robots.",
      connectorId: "openai-compatible",
      model: PRICED,
      department: "sales",
    });
    priced.memberId = member.id;
    const spent = (await api("GET", `/api/companies/${priced.id}/budget`)).budget.used;
    expect(spent.usd).toBeGreaterThan(0.01);
    expect(spent.unpricedCalls).toBe(0);
    // The company at 90% of its limit (warned at 80%), the CEO at 100% of its own (exhausted).
    await api("PUT", `/api/companies/${priced.id}/budget`, { usd: spent.usd / 0.9 });
    await api("PUT", `/api/agents/${priced.ceoId}/budget`, { usd: spent.usd });
    const report = await api("GET", `/api/companies/${priced.id}/budget`);
    expect(report.budget.state).toBe("warning");
    const ceo = (await api("GET", `/api/agents/${priced.ceoId}/budget`)).budget;
    expect(ceo.state).toBe("exhausted");

    await page.goto(`${served.url}/#/companies/${priced.id}/usage`);
    const company = page.getByTestId("budget-company");
    await company.waitFor();
    expect(await company.getByTestId("budget-state").textContent()).toBe("warning");
    expect(await company.getByTestId("budget-spent").textContent()).toBe(
      `Spent ${formatCost(spent.usd)} · ${new Intl.NumberFormat("en-US").format(spent.tokens)} tokens in ${spent.calls} call${spent.calls === 1 ? "" : "s"}`,
    );
    expect(await company.getByTestId("budget-limit").textContent()).toMatch(
      new RegExp(
        `^\\${formatCost(report.budget.limitUsd)} per month \\(since ${formatDate(report.budget.periodStart).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\)$`,
      ),
    );
    expect(await company.getByRole("meter").getAttribute("aria-valuenow")).toBe("90");
    expect(await company.getByTestId("budget-detail").textContent()).toBe(
      "Warning: 90% used, at or over the warning threshold of 80%.",
    );
    // The run caps of the company are stated with it.
    expect(await company.textContent()).toContain("Each run stops at 100 model calls");

    // Per agent: the CEO's own budget is exhausted, with what that stops and how to raise it.
    const ceoRow = agentRow(priced.ceoId);
    await expect.poll(() => ceoRow.getByTestId("budget-state").textContent()).toBe("exhausted");
    expect(await ceoRow.getByRole("meter").getAttribute("aria-valuenow")).toBe("100");
    expect(await ceoRow.getByTestId("budget-detail").textContent()).toContain(
      `new wakes are refused and a running run stops at its next model call. Raise it with npx cadre budgets set --agent ${priced.ceoId}`,
    );
    // Its spend is the usage report's cost of its runs.
    const usage = await api("GET", `/api/companies/${priced.id}/usage`);
    const ceoCost = usage.agents.find((a: { agentId: string }) => a.agentId === priced.ceoId).usage.cost;
    expect(await ceoRow.locator('td[data-label="Spent"]').textContent()).toMatch(
      new RegExp(`^\\${formatCost(ceoCost)} · `),
    );
    // A member with no budget of its own falls under the company's.
    const memberRow = agentRow(priced.memberId);
    expect(await memberRow.getByTestId("budget-state").textContent()).toBe("no budget");
    expect(await memberRow.getByTestId("budget-detail").textContent()).toBe(
      "No budget of its own: the company's budget applies.",
    );
    expect(await memberRow.locator('td[data-label="Spent"]').textContent()).toBe("$0 · 0 tokens in 0 calls");
    await screenshot(page, "40-budget-warned-exhausted");
    // The overview says so too, with the way to the whole picture.
    await page.goto(`${served.url}/#/companies/${priced.id}`);
    const notice = page.getByTestId("budget-notice");
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(
      /^Budget: warning — spent \$[\d.]+ · [\d,]+ tokens in \d+ calls? of \$[\d.]+ per month .*Warning: 90% used/,
    );
    await notice.getByRole("link", { name: "Spend per agent" }).click();
    await page.getByTestId("budget-company").waitFor();
    await screenshotOf(page.getByTestId("budget"), "40a-budget-card");
  });

  it("a model with no price: spend is unknown, never $0, and the USD limit is flagged; a new run shows without a reload", async () => {
    await wakeToEnd(unpriced.ceoId, unpriced.id);
    await page.goto(`${served.url}/#/companies/${unpriced.id}/usage`);
    const company = page.getByTestId("budget-company");
    await company.waitFor();
    expect(await company.getByTestId("budget-state").textContent()).toBe("unknown price");
    expect(await company.getByTestId("budget-spent").textContent()).toMatch(
      /^Spent unknown · [\d,]+ tokens in 1 call$/,
    );
    expect(await company.getByTestId("budget-detail").textContent()).toBe(
      "Warning: 1 call at an unknown price, not counted in USD: the USD limit cannot be trusted.",
    );
    expect(await page.getByTestId("budget").textContent()).not.toMatch(/Spent \$0/);
    // The share of a USD limit that no priced call used is unknown, not 0%.
    expect(await company.getByRole("meter").count()).toBe(0);
    expect(await company.textContent()).toContain("unknown");
    await screenshotOf(page.getByTestId("budget"), "41-budget-unknown-price");
    await page.goto(`${served.url}/#/companies/${unpriced.id}`);
    await expect
      .poll(() => page.getByTestId("budget-notice").textContent())
      .toMatch(/^Budget: unknown price — spent unknown · /);
    await screenshotOf(page.getByTestId("budget-notice"), "41a-budget-notice-overview");
    await page.goto(`${served.url}/#/companies/${unpriced.id}/usage`);
    await company.waitFor();

    // Another run, started elsewhere: the panel re-reads when it ends.
    await wakeToEnd(unpriced.ceoId, unpriced.id);
    await expect
      .poll(() => company.getByTestId("budget-spent").textContent())
      .toMatch(/^Spent unknown · [\d,]+ tokens in 2 calls$/);
    await expect
      .poll(() => company.getByTestId("budget-detail").textContent())
      .toContain("2 calls at an unknown price");
  });

  it("at phone width the budget reads as one card per agent, with nothing cut off sideways", async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true });
    try {
      const p = await phone.newPage();
      p.setDefaultTimeout(15_000);
      await p.goto(`${served.url}/#token=${served.token}`);
      await p.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
      await p.goto(`${served.url}/#/companies/${priced.id}/usage`);
      await p.getByTestId("budget-agents").locator(`tr[data-agent="${priced.ceoId}"]`).waitFor();
      expect(
        await p.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth),
      ).toBe(true);
      const card = (await p.getByTestId("budget").boundingBox())!;
      for (const state of await p.getByTestId("budget-state").all()) {
        const box = (await state.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(card.x + card.width);
      }
      await screenshotOf(p.getByTestId("budget"), "42-budget-phone");
    } finally {
      await phone.close();
    }
  });

  it("a budget raised elsewhere shows at once: the notice leaves and the agent's state turns ok, without a reload", async () => {
    await page.goto(`${served.url}/#/companies/${priced.id}`);
    await expect.poll(() => page.getByTestId("budget-notice").textContent()).toMatch(/^Budget: warning/);
    // Raised through the API (as `cadre budgets set` does from another process): no run starts or ends.
    await api("PUT", `/api/companies/${priced.id}/budget`, { usd: 1000 });
    await expect.poll(() => page.getByTestId("budget-notice").count(), { timeout: 5_000 }).toBe(0);
    await page.goto(`${served.url}/#/companies/${priced.id}/usage`);
    await expect
      .poll(() => agentRow(priced.ceoId).getByTestId("budget-state").textContent())
      .toBe("exhausted");
    await api("PUT", `/api/agents/${priced.ceoId}/budget`, { usd: 1000 });
    await expect
      .poll(() => agentRow(priced.ceoId).getByTestId("budget-state").textContent(), { timeout: 5_000 })
      .toBe("ok");
  });
});
