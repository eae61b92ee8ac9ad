// The evaluation report page in Debian's Chromium, checked as a person reads it: at desktop width
// the scenario table fits its card without a sideways scroll and no cell wraps onto a second line;
// in both charts every scenario name, bar value and axis label lies inside the chart, and no two
// names overlap; at phone width the page itself never scrolls sideways and the charts still show
// every label whole. Screenshots go to packages/web/test-artifacts/.
import { fileURLToPath } from "node:url";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchChromium, screenshot, screenshotOf } from "./support/browser.js";
import { type Served, startCadreServe } from "./support/serve.js";

const REPORT = fileURLToPath(new URL("../model/__fixtures__/eval-report.json", import.meta.url));
const CHARTS = ["eval-hires-chart", "eval-cache-chart"];

let served: Served;
let browser: Browser;

beforeAll(async () => {
  [served, browser] = await Promise.all([startCadreServe(), launchChromium()]);
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
});

async function openReport(viewport: { width: number; height: number }, isMobile = false): Promise<Page> {
  const context = await browser.newContext({ viewport, isMobile, hasTouch: isMobile });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(served.signInLink);
  await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
  await page.goto(`${served.url}/#/eval`);
  await page.getByLabel(/Open a report\.json/).setInputFiles(REPORT);
  await page.getByTestId("eval-scenarios").waitFor();
  for (const chart of CHARTS) await page.getByTestId(chart).locator("svg text.bar-name").first().waitFor();
  return page;
}

interface Box {
  left: number;
  right: number;
  top: number;
  bottom: number;
}

/** Every text drawn in a chart that is not wholly inside its svg, and names that overlap. */
async function clippedLabels(page: Page, testId: string) {
  return page.getByTestId(testId).evaluate((figure) => {
    const box = (r: DOMRect) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom });
    const svg = figure.querySelector("svg")!;
    const area = box(svg.getBoundingClientRect());
    const card = box(figure.getBoundingClientRect());
    const texts = [...svg.querySelectorAll("text")].filter((t) => t.textContent!.trim() !== "");
    const outside = (b: Box, r: Box) =>
      b.left < r.left - 0.5 || b.right > r.right + 0.5 || b.top < r.top - 0.5 || b.bottom > r.bottom + 0.5;
    const clipped = texts
      .map((t) => ({ text: t.textContent!, b: box(t.getBoundingClientRect()) }))
      .filter(({ b }) => outside(b, area))
      .map(({ text, b }) => `${text} [${b.left.toFixed(0)}..${b.right.toFixed(0)}]`);
    const names = [...svg.querySelectorAll("text.bar-name")].map((t) => box(t.getBoundingClientRect()));
    const overlapping = names.filter((a, i) =>
      names.some(
        (b, j) =>
          j !== i && a.left < b.right && b.left < a.right && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5,
      ),
    ).length;
    return {
      names: names.length,
      texts: texts.length,
      clipped,
      overlapping,
      svgInCard: !outside(area, card),
    };
  });
}

describe("the evaluation report page", () => {
  it("at desktop width: the scenario table fits its card, one line per cell; every chart label is whole", async () => {
    const page = await openReport({ width: 1280, height: 800 });
    try {
      const table = page.getByTestId("eval-scenarios");
      expect(await table.locator("tbody tr").count()).toBe(16);
      const fit = await table.evaluate((t) => {
        const scroll = t.closest(".table-scroll")!;
        // A cell whose text runs over more than one line (its text's line boxes at more than one height).
        const wrapped = [...t.querySelectorAll("th, td")]
          .filter((cell) => {
            const range = document.createRange();
            range.selectNodeContents(cell);
            return new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1;
          })
          .map((cell) => cell.textContent);
        return { scrollWidth: scroll.scrollWidth, clientWidth: scroll.clientWidth, wrapped };
      });
      expect(fit.wrapped).toEqual([]);
      expect(fit.scrollWidth).toBeLessThanOrEqual(fit.clientWidth);
      for (const chart of CHARTS) {
        const seen = await clippedLabels(page, chart);
        expect(seen.names, chart).toBe(16);
        expect(seen.clipped, chart).toEqual([]);
        expect(seen.overlapping, chart).toBe(0);
        expect(seen.svgInCard, chart).toBe(true);
      }
      // The longest scenario name is drawn whole, not cut to fit a fixed axis.
      expect(
        await page
          .getByTestId("eval-hires-chart")
          .locator("text.bar-name", { hasText: "several-connectors-one-not-ready" })
          .count(),
      ).toBe(1);
      // The legend names both series without a hover.
      expect(await page.getByTestId("eval-cache-chart").locator(".legend li").allTextContents()).toEqual([
        "baseline",
        "candidate",
      ]);
      await screenshot(page, "30-eval-report-desktop");
      await screenshotOf(page.locator("section", { has: table }), "30a-eval-scenarios-desktop");
      await screenshotOf(page.getByTestId("eval-hires-chart"), "30b-eval-hires-chart-desktop");
    } finally {
      await page.context().close();
    }
  });

  it("at phone width: nothing scrolls the page sideways and every chart label is still whole", async () => {
    const page = await openReport({ width: 390, height: 844 }, true);
    try {
      expect(
        await page.evaluate(
          () => document.documentElement.scrollWidth <= document.documentElement.clientWidth,
        ),
      ).toBe(true);
      for (const chart of CHARTS) {
        const seen = await clippedLabels(page, chart);
        expect(seen.names, chart).toBe(16);
        expect(seen.clipped, chart).toEqual([]);
        expect(seen.overlapping, chart).toBe(0);
        expect(seen.svgInCard, chart).toBe(true);
      }
      await screenshot(page, "31-eval-report-phone");
      await screenshotOf(page.getByTestId("eval-cache-chart"), "31a-eval-cache-chart-phone");
      await screenshotOf(
        page.locator("section", { has: page.getByTestId("eval-scenarios") }),
        "31b-eval-scenarios-phone",
      );
    } finally {
      await page.context().close();
    }
  });
});
