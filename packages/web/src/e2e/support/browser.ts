// Debian's Chromium driven by playwright-core (Playwright's own browser download does not work
// on these machines; .ci/run installs the `chromium` package). Each launch gets a fresh temporary
// profile from Playwright, so no state leaks between tests.
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Locator, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
const ARTIFACTS = fileURLToPath(new URL("../../../test-artifacts/", import.meta.url));

export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM))
    throw new Error(
      `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium), as .ci/run does`,
    );
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
      "--disable-dev-shm-usage",
    ],
  });
}

/**
 * Saves a screenshot under packages/web/test-artifacts/ (gitignored); returns its path. Full page
 * by default; `fullPage: false` keeps the viewport as it is (a full-page shot resizes it, which
 * moves scrolled lists).
 */
export async function screenshot(
  page: Page,
  name: string,
  options: { fullPage?: boolean } = {},
): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await page.screenshot({ path, fullPage: options.fullPage ?? true });
  return path;
}

/** Saves a screenshot of one element (a card, a chart) under packages/web/test-artifacts/. */
export async function screenshotOf(locator: Locator, name: string): Promise<string> {
  await mkdir(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  await locator.screenshot({ path });
  return path;
}
