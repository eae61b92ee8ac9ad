// A run of 10,000 events in the dashboard: it replays to the end over the event stream, only the
// rows in view exist in the document, and the list scrolls from the first model call to the
// terminal event. How long any of that takes is measured by `npm run bench -- --only dashboard`
// (packages/cli/src/bench/dashboard.ts), never asserted here: CI runs on a loaded machine. The run
// is stored before `cadre serve` starts; the dashboard replays it like any run.
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot } from "./support/browser.js";
import { prepareLongRun } from "./support/long-run.js";
import { type Served, startCadreServe } from "./support/serve.js";

const EVENTS = 10_000;

let served: Served;
let browser: Browser;
let page: Page;
let run: { companyId: string; runId: string };

beforeAll(async () => {
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-web-long-"));
  run = await prepareLongRun(dataDir, EVENTS);
  [served, browser] = await Promise.all([startCadreServe({ dataDir }), launchChromium()]);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(30_000);
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

/** Moves the run's list to its top or its bottom. */
function scrollTo(p: Page, where: "top" | "bottom") {
  return p.getByTestId("run-events").evaluate((el, where) => {
    el.scrollTop = where === "top" ? 0 : el.scrollHeight;
  }, where);
}

describe("a run of 10,000 events", () => {
  it("replays to the end, renders only the rows in view and scrolls from the first model call to the terminal", async () => {
    await page.goto(`${served.url}/#token=${served.token}`);
    await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
    await page.goto(`${served.url}/#/companies/${run.companyId}/runs/${run.runId}`);
    await expect
      .poll(() => page.getByTestId("run-event-count").textContent(), { timeout: 60_000 })
      .toBe("10,000");
    await page.getByTestId("run-terminal").waitFor();

    // Only the rows in view (and a margin) exist in the document.
    const rows = await page.locator(".vrow").count();
    expect(rows).toBeGreaterThan(5);
    expect(rows).toBeLessThan(150);

    // Every row, the harness's own (model-call headers, usage) included: the longest list there is.
    await page.getByTestId("show-internal").check();
    await scrollTo(page, "top");
    await page.getByText("Model call 1", { exact: false }).first().waitFor();
    expect(await page.locator(".vrow").first().getAttribute("data-index")).toBe("0");
    const box = (await page.getByTestId("run-events").boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    for (let i = 0; i < 30; i++) await page.mouse.wheel(0, 900);
    await expect
      .poll(async () => Number(await page.locator(".vrow").first().getAttribute("data-index")))
      .toBeGreaterThan(100);
    // Still only the rows in view, wherever the list is.
    expect(await page.locator(".vrow").count()).toBeLessThan(150);
    await scrollTo(page, "bottom");
    await page.getByTestId("run-terminal").waitFor();
    await screenshot(page, "12-long-run", { fullPage: false });
  }, 120_000);
});
