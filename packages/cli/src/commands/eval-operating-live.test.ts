// `cadre eval operating --connector` as a user runs it against a model server of their own: here a
// loopback @cadre/standin speaking OpenAI Chat Completions (its echo policy: text only, never a tool
// call). Every agent of each scenario's company runs on that connector; the rule checks are
// computed from what happened; the behaviour checks are not measured, because the server says it is
// a stand-in, and the report says so. A connector that is not one is refused before anything runs.
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { echo, STANDIN_HEADER, startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { join } from "node:path";
import { tmpdir } from "node:os";
import { runCli } from "../testing/run-cli.js";

const ENV = {
  PATH: process.env["PATH"] ?? "",
  HOME: join(tmpdir(), `cadre-eval-operating-live-${process.pid}`),
};
const MODEL = "operating-chat-7b";

let server: StandinServer;
let unmarked: { server: Server; url: string };
beforeAll(async () => {
  server = await startStandin({ policy: echo });
  unmarked = await unmarkedProxy(server.url);
});
afterAll(async () => {
  await new Promise((resolve) => unmarked.server.close(resolve));
  await server.close();
});

/**
 * A loopback proxy in front of the stand-in that drops the header by which it says what it is: to
 * the evaluation it is then a model server like any other, and behaviour counts as measured.
 */
async function unmarkedProxy(target: string): Promise<{ server: Server; url: string }> {
  const upstream = new URL(target);
  const proxy = createServer((req, res) => {
    const forward = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        const headers = { ...answer.headers };
        delete headers[STANDIN_HEADER];
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  await new Promise<void>((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return { server: proxy, url: `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/v1` };
}

interface Report {
  source: string;
  connector: string;
  model: string | null;
  notMeasured: string | null;
  caps: { modelCalls: number } | null;
  scenarios: Array<{
    id: string;
    runs: number;
    modelCalls: number;
    checks: Array<{ id: string; kind: string; pass: boolean; measured: boolean; evidence: string }>;
  }>;
}

describe("cadre eval operating --connector", () => {
  it("runs every agent of each scenario on the connector; rules computed, behaviour not measured on a stand-in", async () => {
    const before = server.requests.length;
    const r = await runCli(
      [
        "eval",
        "operating",
        "--connector",
        "openai-compatible",
        "--base-url",
        server.openaiBaseUrl,
        "--model",
        MODEL,
        "--max-model-calls",
        "7",
        "--json",
      ],
      ENV,
    );
    const report = JSON.parse(r.out.trim().split("\n").at(-1)!) as Report;
    expect(report).toMatchObject({
      source: "scripted",
      connector: `openai-compatible:${MODEL}`,
      model: MODEL,
      caps: { modelCalls: 7 },
    });
    expect(report.notMeasured).toMatch(/the model server is a stand-in, not a model: .*x-cadre-standin/);
    // The companies really ran on the stand-in: every model call the report counts reached it.
    const calls = report.scenarios.reduce((n, s) => n + s.modelCalls, 0);
    expect(report.scenarios.find((s) => s.id === "deliverable-review")!.runs).toBeGreaterThan(0);
    expect(calls).toBeGreaterThan(0);
    const answered = server.modelCalls().filter((c) => c.seq >= before);
    expect(answered.length).toBe(calls);
    expect(answered.every((c) => c.request.model === MODEL)).toBe(true);
    for (const s of report.scenarios)
      for (const c of s.checks)
        if (c.kind === "rule") expect(c.measured, `${s.id} ${c.id}`).toBe(true);
        else {
          expect(c.measured, `${s.id} ${c.id}`).toBe(false);
          expect(c.evidence).toMatch(/not measured: the model server is a stand-in/);
        }
    // A model that never hands anything in breaks the rules that need a hand-in: the command fails.
    const handIns = report.scenarios
      .find((s) => s.id === "deliverable-review")!
      .checks.find((c) => c.id === "no-self-acceptance")!;
    expect(handIns).toMatchObject({ pass: false, measured: true });
    expect(handIns.evidence).toMatch(/^0 hand-in\(s\)/);
    expect(r.code).toBe(1);
    expect(r.err).toMatch(
      /operating phase — scripted model \(on openai-compatible:operating-chat-7b\): rules measured; behaviour not measured: the model server is a stand-in/,
    );
    expect(r.err).toMatch(/caps per run of a scenario's company: 7 model calls/);
  }, 180_000);

  it("on a server that does not say it is a stand-in, the behaviour checks are measured", async () => {
    const r = await runCli(
      [
        "eval",
        "operating",
        "--connector",
        "openai-compatible",
        "--base-url",
        unmarked.url,
        "--model",
        MODEL,
        "--json",
      ],
      ENV,
    );
    const report = JSON.parse(r.out.trim().split("\n").at(-1)!) as Report;
    expect(report).toMatchObject({ source: "live", notMeasured: null });
    // Measured, and failed: a model that only talks delegates nothing.
    const lead = report.scenarios
      .find((s) => s.id === "ceo-delegation")!
      .checks.find((c) => c.id === "leads-have-strategy-tasks")!;
    expect(lead).toMatchObject({ kind: "behaviour", measured: true, pass: false });
    expect(lead.evidence).not.toMatch(/not measured/);
    expect(r.err).toMatch(/behaviour measured\n/);
    expect(r.err).toMatch(/\n {2}FAIL {2}leads-have-strategy-tasks +behaviour /);
    expect(r.code).toBe(1);
  }, 180_000);

  it("--help says where behaviour is measured", async () => {
    const help = await runCli(["eval", "--help"], ENV);
    expect(help.out).toMatch(/cadre eval operating \[--scenarios DIR\] \[--seed N\] \[--connector KIND/);
    expect(help.out).toMatch(
      /measured only on a\s+model — on the offline model or a server that says it is a stand-in/,
    );
  });

  it("refuses a connector that is not one, listing the allowed ones, and runs nothing", async () => {
    const before = server.requests.length;
    const r = await runCli(["eval", "operating", "--connector", "gpt-5", "--json"], ENV);
    expect(r.code).toBe(2);
    expect(r.out).toBe("");
    expect(r.err).toMatch(
      /--connector must be one of offline, anthropic, openai, openai-compatible, claude-code, codex, standin \(got "gpt-5"\)/,
    );
    expect(r.err).not.toMatch(/operating phase/);
    expect(server.requests.length).toBe(before);
    const capsOffline = await runCli(["eval", "operating", "--max-model-calls", "3"], ENV);
    expect(capsOffline.code).toBe(2);
    expect(capsOffline.err).toMatch(/--max-model-calls applies only with --connector/);
  });
});
