// The overview's model-drift notice (MC-6), in Debian's Chromium against a real `cadre serve`: a
// company whose CEO runs on a declared local model behind the loopback stand-in (OFFLINE, the
// OpenAI wire). A run the endpoint answers as the declared model shows no notice; after a run it
// answers as another model, the overview names the agent, the declared and the served model and
// when (the time of the drift the API reports), without a reload. The Connectors tab says the same
// on the connector; and once the endpoint re-points the declared model's tag to another digest (an
// Ollama pull), the connector's next check — the operator's Test — shows the model replaced, with
// both digests. Screenshots in test-artifacts/.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany } from "@cadre/company";
import { reply, startStandin, type StandinServer } from "@cadre/standin";
import { openStore } from "@cadre/store";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatTime } from "../model/format.js";
import { launchChromium, screenshotOf } from "./support/browser.js";
import { type Served, startCadreServe, apiOk } from "./support/serve.js";

const DECLARED = "llama-3.1-8b-instruct";
const SERVED = "llama-3.1-70b-instruct";
// What the endpoint's tags listing offers under DECLARED: when declared, and after a pull re-points it.
const PULLED = "4".repeat(64);
const REPULLED = "7".repeat(64);

let served: Served;
let browser: Browser;
let page: Page;
let standin: StandinServer;
let companyId = "";
let ceoId = "";
// What the stand-in's next answers say served them (the declared model, until the test re-points it).
let answeringAs = DECLARED;

const api = <T = any>(method: string, path: string, body?: unknown) => apiOk<T>(served, method, path, body);

async function wakeToEnd(): Promise<void> {
  const { runId } = await api<{ runId: string }>("POST", `/api/agents/${ceoId}/wake`, {});
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
    .toMatch(/^(done|failed)$/);
}

beforeAll(async () => {
  standin = await startStandin({
    policy: () => ({ ...reply.text("Looking at the company first."), model: answeringAs }),
    models: [DECLARED],
    digests: { [DECLARED]: PULLED },
  });
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-web-drift-"));
  const store = await openStore({ path: join(dataDir, "cadre.db") });
  try {
    const company = await createCompany(store, {
      name: "Drift Co",
      goal: "Build warehouse robots.",
      connectors: [
        {
          id: "local",
          kind: "openai-compatible",
          enabledModels: [DECLARED],
          config: { baseUrl: standin.openaiBaseUrl, models: [{ id: DECLARED, contextWindow: 32768 }] },
        },
      ],
      ceoConnectorId: "local",
    });
    companyId = company.id;
    ceoId = (await store.listAgents(company.id)).find((a) => a.isCeo)!.id;
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

describe("the model-drift notice on the company overview", () => {
  it("no notice while the endpoint serves the declared model; a drift names the agent, both models and when", async () => {
    await wakeToEnd();
    await page.goto(`${served.url}/#/companies/${companyId}`);
    await page.getByRole("heading", { name: "Org chart" }).waitFor();
    expect(await page.getByTestId("drift-notice").count()).toBe(0);

    answeringAs = SERVED;
    await wakeToEnd();
    const notice = page.getByTestId("drift-notice");
    await notice.waitFor(); // the run's end re-reads the drifts: no reload
    const [drift] = (
      await api<{ items: Array<{ at: string; runId: string }> }>(
        "GET",
        `/api/companies/${companyId}/model-drifts`,
      )
    ).items;
    expect(await notice.getByTestId("drift-item").allTextContents()).toEqual([
      `CEO: declared on "${DECLARED}", the endpoint served "${SERVED}", ${formatTime(drift!.at)} the run`,
    ]);
    expect(await notice.getByRole("link", { name: "the run" }).getAttribute("href")).toContain(drift!.runId);
    expect(await notice.textContent()).toContain("priced unknown");
    await screenshotOf(notice, "drift-notice");
  });
});

describe("model drift on the Connectors tab", () => {
  // After the overview's test: the endpoint served SERVED in the CEO's last run.
  it("the connector names the drift a run saw; after a re-pointed tag, its Test shows the model replaced", async () => {
    await page.goto(`${served.url}/#/companies/${companyId}/connectors`);
    const connector = page.locator('[data-testid="connector"][data-connector="local"]');
    const drift = connector.getByTestId("connector-drift");
    await drift.waitFor();
    const [seen] = (
      await api<{ items: Array<{ at: string; runId: string }> }>(
        "GET",
        `/api/companies/${companyId}/model-drifts`,
      )
    ).items;
    expect(await connector.locator(".badge").allTextContents()).toEqual(["ready", "model drift"]);
    expect(await drift.getByTestId("connector-drift-item").allTextContents()).toEqual([
      `declared on "${DECLARED}", the endpoint served "${SERVED}", ${formatTime(seen!.at)} (CEO) the run`,
    ]);
    expect(await drift.getByRole("link", { name: "the run" }).getAttribute("href")).toContain(seen!.runId);
    expect(await drift.textContent()).toContain("priced unknown; this company warns and goes on");

    standin.repoint(DECLARED, REPULLED);
    await connector.getByRole("button", { name: "Test" }).click();
    await connector.getByTestId("test-result").waitFor();
    await expect
      .poll(() => drift.getByTestId("connector-drift-item").allTextContents())
      .toEqual([
        `the model under "${DECLARED}" was replaced (digest ${"4".repeat(12)} when declared, digest ${"7".repeat(12)} now), found by its last readiness check`,
        `declared on "${DECLARED}", the endpoint served "${SERVED}", ${formatTime(seen!.at)} (CEO) the run`,
      ]);
    // The API says the same of the connector's model.
    const listed = await api<{ items: Array<{ id: string; models: Array<Record<string, unknown>> }> }>(
      "GET",
      `/api/companies/${companyId}/connectors`,
    );
    expect(listed.items.find((c) => c.id === "local")?.models[0]).toMatchObject({
      id: DECLARED,
      fingerprint: `digest:${PULLED}`,
      replacedBy: `digest:${REPULLED}`,
    });
    await screenshotOf(connector, "connector-drift");
  });
});
