// The Connectors view end to end: Debian's Chromium against a real `cadre serve` (the built bin) and
// the loopback stand-in model server as a local OpenAI-compatible endpoint. The operator adds a
// local model with its context window and sees it ready (the endpoint answered, and when), tests it
// with one real request, is refused a connector with a key in its config (the field named), sees an
// endpoint that does not answer as not ready with what failed and when, and removes a connector.
import type { Browser, Page } from "playwright-core";
import { echo, startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot } from "./support/browser.js";
import { type Served, startCadreServe } from "./support/serve.js";

const MODEL = "qwen2.5:14b-instruct-q4_K_M";
let served: Served;
let browser: Browser;
let page: Page;
let standin: StandinServer;
let down: string;
let companyId = "";

beforeAll(async () => {
  [served, browser, standin] = await Promise.all([
    startCadreServe(),
    launchChromium(),
    startStandin({ policy: echo }),
  ]);
  const gone = await startStandin({ policy: echo });
  down = gone.openaiBaseUrl;
  await gone.close();
  const created = await fetch(`${served.url}/api/companies`, {
    method: "POST",
    headers: { authorization: `Bearer ${served.token}`, "content-type": "application/json" },
    body: JSON.stringify({ name: "Northwind Robotics", goal: "Warehouse robots." }),
  });
  companyId = ((await created.json()) as { id: string }).id;
  page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(served.signInLink);
  await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
  await page.goto(`${served.url}/#/companies/${companyId}/connectors`);
  await page.getByRole("heading", { name: "Add a connector" }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
  await standin?.close();
});

const item = (id: string) => page.locator(`[data-testid="connector"][data-connector="${id}"]`);

async function add(fields: Record<string, string>): Promise<void> {
  for (const [label, value] of Object.entries(fields)) {
    if (label === "Kind") await page.getByLabel("Kind").selectOption(value);
    else await page.getByLabel(label, { exact: true }).fill(value);
  }
  await page.getByRole("button", { name: "Add connector" }).click();
}

describe("the Connectors view", () => {
  it("adds a local model with its context window: ready, the endpoint answered, and when it was checked", async () => {
    await add({ Id: "local", "Base URL": standin.openaiBaseUrl, Models: MODEL, "Context window": "32768" });
    await item("local").waitFor();
    const text = await item("local").textContent();
    expect(text).toContain("ready");
    expect(text).toMatch(
      new RegExp(`Endpoint ${standin.openaiBaseUrl}/models answered in \\d+ ms — checked`),
    );
    expect(text).toContain(`${MODEL} (32,768 tokens)`);
    await screenshot(page, "connectors-01-added");
  });

  it("tests it: one real request, ok, with the model and the latency", async () => {
    const calls = standin.modelCalls().length;
    await item("local").getByRole("button", { name: "Test" }).click();
    const result = item("local").getByTestId("test-result");
    await result.waitFor();
    expect(await result.textContent()).toMatch(
      new RegExp(`^Test ok: ${MODEL.replace(/\./g, "\\.")} answered in \\d+ ms`),
    );
    expect(standin.modelCalls().length - calls).toBe(1);
  });

  it("refuses a key in the config, naming the field and what to do instead; nothing is added", async () => {
    await add({
      Id: "leaky",
      "Base URL": standin.openaiBaseUrl,
      Models: MODEL,
      "Context window": "32768",
      "More config (JSON)": '{"auth":{"apiKey":"sk-proj-0123456789abcdefghij"}}',
    });
    const error = page.getByTestId("add-error");
    await error.waitFor();
    expect(await error.textContent()).toMatch(
      /`config\.auth\.apiKey` looks like a credential .*reference it by environment-variable name \(apiKeyEnv\)/,
    );
    expect(await item("leaky").count()).toBe(0);
    await screenshot(page, "connectors-02-secret-refused");
  });

  it("an endpoint that does not answer: not ready, what failed, when it was checked", async () => {
    await page.getByLabel("More config (JSON)").fill("");
    await add({ Id: "down", "Base URL": down, Models: MODEL, "Context window": "8192" });
    await item("down").waitFor();
    const text = await item("down").textContent();
    expect(text).toContain("not ready");
    expect(text).toMatch(
      /Last check failed: GET http:\/\/127\.0\.0\.1:\d+\/v1\/models: connection refused \(ECONNREFUSED\) — checked/,
    );
    await screenshot(page, "connectors-03-not-ready");
  });

  it("removes a connector; the built-in offline one is refused with the reason", async () => {
    await item("down").getByRole("button", { name: "Remove" }).click();
    await expect.poll(() => item("down").count()).toBe(0);
    await item("offline").getByRole("button", { name: "Remove" }).click();
    await item("offline").getByRole("alert").waitFor();
    expect(await item("offline").getByRole("alert").textContent()).toMatch(/built in/);
    // The overview shows the same readiness, with a link here.
    await page.getByRole("link", { name: "Overview" }).click();
    const overview = await page.getByTestId("connectors").textContent();
    expect(overview).toContain("local");
    expect(overview).toMatch(/answered in \d+ ms — checked/);
    await screenshot(page, "connectors-04-overview");
  });
});
