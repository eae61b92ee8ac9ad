// Named operators in the dashboard, in Debian's Chromium against a real `cadre serve`: a viewer
// signs in with their own token, sees who they are and no way to decide or wake (and why), and
// reads the audit log; an operator decides the strategy, the audit log names them, and the CEO's
// next run explains itself back to that decision.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot } from "./support/browser.js";
import { type Served, startCadreServe } from "./support/serve.js";

let served: Served;
let browser: Browser;
let page: Page;
const story = { companyId: "", ceoId: "", approvalId: "", viewer: "", alice: "" };

async function api<T = any>(method: string, path: string, body?: unknown, token = served.token): Promise<T> {
  const r = await fetch(`${served.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  if (!r.ok) throw new Error(`${method} ${path}: ${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

beforeAll(async () => {
  [served, browser] = await Promise.all([startCadreServe(), launchChromium()]);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(15_000);
  const company = await api("POST", "/api/companies", {
    name: "Northwind Robotics",
    goal: "Warehouse robots.",
  });
  story.companyId = company.id;
  story.ceoId = company.ceoAgentId;
  const { runId } = await api("POST", `/api/agents/${story.ceoId}/wake`, { trigger: "start_team_building" });
  for (let i = 0; i < 300 && (await api("GET", `/api/runs/${runId}`)).status === "running"; i++)
    await new Promise((r) => setTimeout(r, 100));
  story.approvalId = (await api("GET", `/api/companies/${story.companyId}/approvals`)).items[0].id;
  story.viewer = (await api("POST", "/api/operators", { name: "vera", role: "viewer" })).token;
  story.alice = (await api("POST", "/api/operators", { name: "alice", role: "operator" })).token;
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

describe("operators in the dashboard", () => {
  it("signs a viewer in with their own token, names them, and offers no decision or wake", async () => {
    await page.goto(`${served.url}/#token=${story.viewer}`);
    await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
    expect(await page.getByTestId("signed-in-as").textContent()).toBe("vera · viewer · every company");
    expect(await page.getByTestId("create-not-allowed").textContent()).toContain("vera is a viewer");
    await page.goto(`${served.url}/#/companies/${story.companyId}/approvals`);
    const pending = page.getByTestId("pending-approval");
    await expect.poll(() => pending.count()).toBe(1);
    await pending.getByTestId("decision-not-allowed").waitFor();
    expect(await pending.getByRole("button", { name: "Approve" }).count()).toBe(0);
    await page.goto(`${served.url}/#/companies/${story.companyId}`);
    await page.getByTestId("team-table").waitFor();
    expect(await page.getByTestId("team-table").getByRole("button").count()).toBe(0);
    // The cockpit's actions are an operator's too: the thread is read without its box, the board
    // without its forms, the runs without "Run due work"; each says why.
    await page.getByRole("heading", { name: "Conversation with the CEO" }).waitFor();
    expect(await page.getByRole("form", { name: "Write to the CEO" }).count()).toBe(0);
    await page.getByText("vera is a viewer: deciding approvals").first().waitFor();
    await page.goto(`${served.url}/#/companies/${story.companyId}/tasks`);
    await page.getByText("vera is a viewer: deciding approvals").first().waitFor();
    expect(await page.getByRole("form", { name: "New task" }).count()).toBe(0);
    await page.goto(`${served.url}/#/companies/${story.companyId}/runs`);
    await page.getByRole("heading", { name: "Runs" }).first().waitFor();
    expect(await page.getByRole("button", { name: "Run due work" }).count()).toBe(0);
    await screenshot(page, "people-01-viewer");
  });

  it("lets an operator decide, and the Audit tab names them", async () => {
    await page.goto(`${served.url}/#token=${story.alice}`);
    await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
    expect(await page.getByTestId("signed-in-as").textContent()).toBe("alice · operator · every company");
    await page.goto(`${served.url}/#/companies/${story.companyId}/approvals`);
    const pending = page.getByTestId("pending-approval");
    await pending.getByRole("button", { name: "Approve" }).click();
    await page.getByTestId("decision-outcome").waitFor();
    // The inbox names who decided.
    await expect
      .poll(() => page.getByTestId("decision").first().textContent())
      .toContain("by operator alice");
    await page.goto(`${served.url}/#/companies/${story.companyId}/audit`);
    const table = page.getByTestId("audit-table");
    await expect.poll(() => table.textContent()).toContain("approval.decided");
    const row = table.locator("tr", { hasText: "approval.decided" });
    expect(await row.textContent()).toContain("alice");
    expect(await row.textContent()).toContain("pending → approved");
    await screenshot(page, "people-02-audit");
  });

  it("explains the CEO's run that followed, back to alice's decision", async () => {
    // The decision is work for the CEO; run it now rather than wait for the scheduler's pass.
    await api("POST", `/api/companies/${story.companyId}/due-work`, {}, story.alice);
    let runId = "";
    await expect
      .poll(
        async () => {
          const runs = await api<{ items: { id: string; trigger: string; status: string }[] }>(
            "GET",
            `/api/companies/${story.companyId}/runs`,
          );
          const run = runs.items.find((r) => r.trigger === "approval_decided" && r.status !== "running");
          runId = run?.id ?? "";
          return runId !== "";
        },
        { timeout: 30_000 },
      )
      .toBe(true);
    await page.goto(`${served.url}/#/companies/${story.companyId}/runs/${runId}`);
    const why = page.getByTestId("why-panel");
    await expect.poll(() => why.textContent()).toContain("by operator alice");
    expect(await why.textContent()).toContain(`approval ${story.approvalId}`);
    await screenshot(page, "people-03-why");
  });
});
