// End to end with real processes: `cadre standin` (the loopback stand-in
// speaking OpenAI Chat Completions, policy hire-leads) stands in for a local model server; then,
// from a fresh data dir, the built `cadre` creates a company, adds the endpoint as a connector with
// a declared local model, tests it, moves the CEO onto it and wakes it. The CEO's hires and its
// filing go through the company tools over that server, and the run's usage is what the stand-in
// reported, call by call.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { BIN, cliEnv } from "./testing/spawn-cli.js";

// Each test runs some ten `cadre` processes one after the other: on a loaded machine that takes
// far longer than the default 30 s, so the limit is generous (nothing here measures time).

const MODEL = "qwen2.5:14b-instruct-q4_K_M";
let dir: string;
let standin: ChildProcess | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-real-model-"));
});
afterEach(async () => {
  if (standin && standin.exitCode === null) standin.kill("SIGTERM");
  standin = undefined;
  await rm(dir, { recursive: true, force: true });
});

function cadre(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      env: cliEnv(),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** `cadre standin --port 0 …`; resolves with its URL once its banner is out. */
function startStandin(args: string[]): Promise<string> {
  const child = spawn(process.execPath, [BIN, "standin", "--port", "0", ...args], {
    env: cliEnv(),
    stdio: ["ignore", "pipe", "pipe"],
  });
  standin = child;
  let out = "";
  return new Promise((resolve, reject) => {
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(out);
      if (m) resolve(m[1] as string);
    });
    child.on("exit", (code) => reject(new Error(`cadre standin exited (${code}) before listening`)));
  });
}

interface LoggedCall {
  method: string;
  path: string;
  request?: { model: string; tools: Array<{ name: string }> };
  answered?: { blocks?: Array<{ type: string; name?: string }>; usage?: Record<string, number> };
}

describe("a local OpenAI-compatible model server, from a fresh data dir (Done when)", () => {
  it("company create → connectors add/test → agents set-model → wake: hires and filing through the tools over that server, usage as it reported", async () => {
    const log = join(dir, "standin.jsonl");
    const url = await startStandin([
      "--policy",
      "hire-leads",
      "--connector",
      "local",
      "--model",
      MODEL,
      "--log",
      log,
    ]);
    const data = ["--data", join(dir, "data")];

    const created = await cadre([
      "company",
      "create",
      "--name",
      "Northwind Robotics",
      "--goal",
      "Warehouse robots for mid-size logistics firms.",
      "--json",
      ...data,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const companyId = JSON.parse(created.stdout).id as string;

    const added = await cadre([
      "connectors",
      "add",
      "local",
      "--kind",
      "openai-compatible",
      "--base-url",
      `${url}/v1`,
      "--models",
      MODEL,
      "--context-window",
      "32768",
      ...data,
    ]);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain(`added connector local to Northwind Robotics (${companyId})`);
    expect(added.stdout).toMatch(
      new RegExp(
        `local \\(openai-compatible\\) ready — endpoint ${url}/v1/models answered in \\d+ ms \\(checked \\d{4}-`,
      ),
    );
    expect(added.stdout).toContain(`models: ${MODEL} (32768 tokens, declared)`);

    const tested = await cadre(["connectors", "test", "local", "--json", ...data]);
    expect(tested.code, tested.stderr).toBe(0);
    const test = JSON.parse(tested.stdout.trim().split("\n").at(-1) as string);
    expect(test).toMatchObject({ ok: true, model: MODEL, connectorId: "local" });
    expect(test.latencyMs).toEqual(expect.any(Number));
    expect(test.error).toBeUndefined();

    const agents = JSON.parse((await cadre(["agents", "list", "--json", ...data])).stdout) as Array<{
      id: string;
      isCeo: boolean;
    }>;
    const ceo = agents.find((a) => a.isCeo)!.id;
    const moved = await cadre(["agents", "set-model", ceo, MODEL, "--connector", "local", ...data]);
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toBe(
      `CEO (${ceo}): offline-scripted-1 → ${MODEL} moved from connector offline to local; its next wake starts on it\n`,
    );

    const woke = await cadre(["wake", ceo, "--json", ...data]);
    expect(woke.code, woke.stderr).toBe(0);
    const summary = JSON.parse(woke.stdout.trim().split("\n").at(-1) as string);
    expect(summary).toMatchObject({
      agentId: ceo,
      terminal: "done",
      modeBefore: "team-building",
      modeAfter: "awaiting-approval",
    });

    // The hires and the filing went through the tools, on the connector and model the CEO chose.
    const show = JSON.parse((await cadre(["company", "show", "--json", ...data])).stdout);
    const hires = show.agents.filter((a: { isCeo: boolean }) => !a.isCeo);
    expect(
      hires.map((a: { name: string; via: string; connectorId: string; model: string }) => [
        a.name,
        a.via,
        a.connectorId,
        a.model,
      ]),
    ).toEqual([
      ["CTO", "tool", "local", MODEL],
      ["Head of Product", "tool", "local", MODEL],
      ["Head of Sales", "tool", "local", MODEL],
    ]);
    expect(
      show.approvals.map((a: { type: string; status: string; via: string }) => [a.type, a.status, a.via]),
    ).toEqual([["approve_ceo_strategy", "pending", "tool"]]);
    expect(show.ceo).toMatchObject({ connectorId: "local", model: MODEL });
    expect(show.connectors.find((c: { id: string }) => c.id === "local")).toMatchObject({
      ready: true,
      probes: [{ status: "ok" }],
    });

    // Every model call of the wake reached the stand-in over the OpenAI wire with the tools offered;
    // the run's usage is the sum of what the stand-in reported for those calls.
    if (standin) standin.kill("SIGTERM");
    await new Promise((resolve) => standin?.once("exit", resolve));
    const lines = (await readFile(log, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as LoggedCall);
    const calls = lines.filter((l) => l.method === "POST" && l.path.endsWith("/chat/completions"));
    const wake = calls.filter((l) => (l.request?.tools ?? []).some((t) => t.name === "hire_agent"));
    expect(calls.length - wake.length).toBe(1); // the connector test: one call, no tools
    expect(wake.every((l) => l.request?.model === MODEL)).toBe(true);
    const toolCalls = wake.flatMap((l) =>
      (l.answered?.blocks ?? []).filter((b) => b.type === "tool_call").map((b) => b.name),
    );
    expect(toolCalls).toEqual(["hire_agent", "hire_agent", "hire_agent", "file_approval"]);
    const sum = (k: string) => wake.reduce((n, l) => n + (l.answered?.usage?.[k] ?? 0), 0);
    expect(summary.usage).toMatchObject({
      inputTokens: sum("input"),
      outputTokens: sum("output"),
      cacheReadTokens: sum("cacheRead"),
      cacheWriteTokens: sum("cacheWrite"),
    });
    expect(summary.usage.inputTokens + summary.usage.cacheReadTokens).toBeGreaterThan(0);
    // Stored too: `cadre usage --run` reads the same counters back; the price of a declared model is unknown.
    const usage = JSON.parse((await cadre(["usage", "--run", summary.runId, "--json", ...data])).stdout);
    expect(usage.run.usage).toMatchObject({ input: sum("input"), output: sum("output"), cost: null });
    expect(usage.run.turns).toHaveLength(wake.length);
  }, 180_000);

  it("demo --connector openai-compatible shows the way out; following it, `cadre demo` runs the CEO on that server", async () => {
    const url = await startStandin(["--policy", "hire-leads", "--connector", "local", "--model", MODEL]);
    const data = ["--data", join(dir, "data")];
    const refused = await cadre(["demo", "--connector", "openai-compatible", ...data]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split("\n")).toHaveLength(1);
    expect(refused.stderr).toContain(
      "connector openai-compatible needs your server's URL and an explicit model",
    );
    expect(refused.stderr).toContain(
      "cadre connectors add local --kind openai-compatible --base-url http://127.0.0.1:PORT/v1 --models MODEL --context-window N",
    );
    expect(refused.stderr).toContain("cadre agents set-model CEO_ID MODEL --connector local");
    expect(refused.stdout).toBe("");

    // The steps it names, then the demo again.
    const created = await cadre([
      "company",
      "create",
      "--name",
      "Northwind Robotics",
      "--goal",
      "Robots.",
      ...data,
    ]);
    expect(created.code, created.stderr).toBe(0);
    const added = await cadre([
      "connectors",
      "add",
      "local",
      "--kind",
      "openai-compatible",
      "--base-url",
      `${url}/v1`,
      "--models",
      MODEL,
      "--context-window",
      "32768",
      ...data,
    ]);
    expect(added.code, added.stderr).toBe(0);
    const agents = JSON.parse((await cadre(["agents", "list", "--json", ...data])).stdout) as Array<{
      id: string;
      isCeo: boolean;
    }>;
    const ceo = agents.find((a) => a.isCeo)!.id;
    expect((await cadre(["agents", "set-model", ceo, MODEL, "--connector", "local", ...data])).code).toBe(0);
    const demo = await cadre(["demo", "--json", ...data]);
    expect(demo.code, demo.stderr).toBe(0);
    const summary = JSON.parse(demo.stdout.trim().split("\n").at(-1) as string);
    expect(summary.ceo).toEqual({ agentId: ceo, connectorId: "local", model: MODEL });
    expect(
      summary.hires.map((h: { name: string; via: string; connectorId: string }) => [
        h.name,
        h.via,
        h.connectorId,
      ]),
    ).toEqual([
      ["CTO", "tool", "local"],
      ["Head of Product", "tool", "local"],
      ["Head of Sales", "tool", "local"],
    ]);
  }, 180_000);
});
