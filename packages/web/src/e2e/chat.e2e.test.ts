// The conversation with the CEO on the overview, in Debian's Chromium against a real `cadre serve`
// whose CEO runs on the loopback stand-in model server (the OpenAI wire). The stand-in is plumbing,
// not judgement: when the session offers reply_to_operator and it has not called it yet, it calls
// it with a fixed line, then ends with a text — it never reads the operator's words. The operator
// writes from the dashboard; the message wakes the CEO (operator_message) and its answer arrives
// in the thread without a reload. An empty message is refused with the server's message. The
// phase and the approvals stay as they were. Screenshots at both widths go to test-artifacts/.
import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createCompany } from "@cadre/company";
import { loadUserModels } from "@cadre/core";
import { findTool, reply, startStandin, type StandinServer, toolExchanges } from "@cadre/standin";
import { openStore } from "@cadre/store";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { launchChromium, screenshot } from "./support/browser.js";
import { type Served, startCadreServe } from "./support/serve.js";

const MODEL = "chat-stand-in-1b";
const REPLY = "Thanks for writing: noted. (stand-in)";
vi.setConfig({ expect: { poll: { timeout: 30_000, interval: 100 } } });

let served: Served;
let browser: Browser;
let page: Page;
let standin: StandinServer;
const co = { id: "", ceoId: "" };

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

beforeAll(async () => {
  standin = await startStandin({
    policy: (request) => {
      const tool = findTool(request, "reply_to_operator");
      const replied = toolExchanges(request).some((x) => x.name.endsWith("reply_to_operator"));
      if (tool && !replied) return reply.toolCall(tool, { text: REPLY });
      return reply.text("Done for now. (stand-in)");
    },
  });
  const dataDir = await mkdtemp(join(tmpdir(), "cadre-web-chat-"));
  await writeFile(
    join(dataDir, "cadre.config.json"),
    JSON.stringify({ models: [{ id: MODEL, contextWindow: 128_000, maxOutput: 4096 }] }),
  );
  await loadUserModels({ dataDir, env: {} });
  const store = await openStore({ path: join(dataDir, "cadre.db") });
  try {
    const company = await createCompany(store, {
      name: "Chat Co",
      goal: "Build warehouse robots.",
      connectors: [
        { kind: "openai-compatible", config: { baseUrl: standin.openaiBaseUrl }, enabledModels: [MODEL] },
      ],
      ceoConnectorId: "openai-compatible",
    });
    co.id = company.id;
    co.ceoId = (await store.listAgents(company.id)).find((a) => a.isCeo)!.id;
  } finally {
    await store.close();
  }
  [served, browser] = await Promise.all([startCadreServe({ dataDir }), launchChromium()]);
  page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  page.setDefaultTimeout(15_000);
  await page.goto(served.signInLink);
  await page.getByRole("heading", { name: "Companies", level: 1 }).waitFor();
});

afterAll(async () => {
  await browser?.close();
  await served?.stop();
  await standin?.close();
});

describe("the conversation with the CEO", () => {
  it("refuses an empty message with the server's words and posts nothing", async () => {
    await page.goto(`${served.url}/#/companies/${co.id}`);
    const form = page.getByRole("form", { name: "Write to the CEO" });
    await form.getByRole("button", { name: "Send" }).click();
    const expected = (await api("POST", `/api/companies/${co.id}/messages`, { text: "" })).body.error.message;
    expect(expected).toMatch(/text/);
    await expect.poll(() => form.getByTestId("action-error").textContent()).toBe(expected);
    expect((await api("GET", `/api/companies/${co.id}/messages`)).body.items).toEqual([]);
  });

  it("a message from the dashboard wakes the CEO, whose answer arrives in the thread; nothing else changes", async () => {
    const before = (await api("GET", `/api/companies/${co.id}`)).body;
    const form = page.getByRole("form", { name: "Write to the CEO" });
    await form.getByLabel("Message to the CEO").fill("How is the **team** coming along?");
    await form.getByRole("button", { name: "Send" }).click();
    const thread = page.getByTestId("thread");
    await thread.getByTestId("message").first().waitFor();
    // The operator's markdown is rendered, not shown raw.
    expect(await thread.getByTestId("message").first().locator("strong", { hasText: "team" }).count()).toBe(
      1,
    );
    // The CEO was woken for the message, and its answer appears without a reload.
    await expect
      .poll(async () =>
        (await api<{ items: any[] }>("GET", `/api/companies/${co.id}/runs`)).body.items.map((r) => [
          r.agentId,
          r.trigger,
        ]),
      )
      .toContainEqual([co.ceoId, "operator_message"]);
    await expect.poll(() => thread.getByTestId("message").count()).toBe(2);
    expect(await thread.getByTestId("message").nth(1).textContent()).toContain(REPLY);
    const items = (await api<any>("GET", `/api/companies/${co.id}/messages`)).body.items;
    expect(items.map((m: any) => m.from)).toEqual(["operator", co.ceoId]);
    const after = (await api("GET", `/api/companies/${co.id}`)).body;
    expect([after.ceoMode, after.toolsInMode]).toEqual([before.ceoMode, before.toolsInMode]);
    await screenshot(page, "46-chat-desktop");
    await page.setViewportSize({ width: 390, height: 844 });
    await thread.scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "47-chat-phone");
  });

  it("the CEO's run for the message reads as such: woken by the message, its reply as a message, cost unknown", async () => {
    await page.setViewportSize({ width: 1280, height: 800 });
    const runs = (await api<{ items: any[] }>("GET", `/api/companies/${co.id}/runs`)).body.items;
    const run = runs.find((r) => r.trigger === "operator_message")!;
    await page.goto(`${served.url}/#/companies/${co.id}/runs/${run.id}`);
    const trigger = page.getByTestId("run-trigger");
    await expect
      .poll(() => trigger.textContent())
      .toBe("Woke because the operator wrote to the CEO: the message");
    expect(await trigger.getByTestId("trigger-message").getAttribute("href")).toBe(`#/companies/${co.id}`);
    const reply = page.getByTestId("reply-card");
    await expect.poll(() => reply.locator("blockquote").textContent()).toBe(REPLY);
    expect(
      await page.getByTestId("tool-call").filter({ has: reply }).locator(".tool-name").textContent(),
    ).toBe("Reply to the operator");
    // The stand-in model is declared without a price: what the run cost is not known, and says so.
    await page.getByTestId("run-state").filter({ hasText: "done" }).waitFor();
    expect(await page.getByTestId("run-cost").textContent()).toBe("unknown");
    expect(await page.getByTestId("run-spend").textContent()).not.toContain("$0");
    await screenshot(page, "48-chat-run-desktop", { fullPage: false });
    await page.setViewportSize({ width: 390, height: 844 });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(page, "49-chat-run-phone");
  });
});
