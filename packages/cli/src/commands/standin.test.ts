// `cadre standin` as a real process (the built bin): it says what it is, serves the SDKs, logs a
// line per request, stops on SIGTERM; bad options exit 2 with one line saying what is allowed.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
let dir: string;
let child: ChildProcess | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-standin-"));
});
afterEach(async () => {
  if (child && child.exitCode === null) child.kill("SIGKILL");
  child = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Starts the command; resolves with its URL once it printed its banner (ending with the OpenAI base URL). */
function start(args: string[]) {
  const proc = spawn(process.execPath, [BIN, "standin", ...args], { stdio: ["ignore", "pipe", "pipe"] });
  child = proc;
  let out = "";
  let err = "";
  proc.stderr.on("data", (d) => (err += d));
  const exited = new Promise<number | null>((resolve) => proc.on("exit", (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    proc.stdout.on("data", (d) => {
      out += d;
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)\n[\s\S]*\1\/v1\n/.exec(out);
      if (m) resolve(m[1] as string);
    });
    proc.on("exit", () => reject(new Error(`exited before listening: ${err}`)));
  });
  return { url, exited, out: () => out, err: () => err };
}

describe("cadre standin (built bin, real process)", () => {
  it("serves the Anthropic and OpenAI SDKs with hire-leads, logs each request, stops on SIGTERM", async () => {
    const log = join(dir, "requests.jsonl");
    const run = start([
      "--policy",
      "hire-leads",
      "--connector",
      "offline",
      "--model",
      "offline-scripted-1",
      "--log",
      log,
    ]);
    const url = await run.url;
    expect(run.out()).toMatch(
      /^stand-in model server \(offline: scripted answers, not a real model; every response says so: x-cadre-standin\) listening on /,
    );
    expect(run.out()).toContain(`ANTHROPIC_BASE_URL=${url}\n`);
    expect(run.out()).toContain(`${url}/v1\n`);
    const tool = {
      name: "mcp__cadre__hire_agent",
      description: "Hire",
      input_schema: { type: "object" as const },
    };
    const message = await new Anthropic({ apiKey: "k", baseURL: url }).messages.create({
      model: "claude-standin-1",
      max_tokens: 512,
      tools: [tool],
      messages: [{ role: "user", content: "You are the CEO. Your team is currently empty." }],
    });
    expect(message.content.find((b) => b.type === "tool_use")).toMatchObject({
      name: "mcp__cadre__hire_agent",
      input: { name: "CTO", connectorId: "offline", model: "offline-scripted-1" },
    });
    const chat = await new OpenAI({ apiKey: "k", baseURL: `${url}/v1` }).chat.completions.create({
      model: "qwen2.5-14b-instruct",
      messages: [{ role: "user", content: "hi" }],
    });
    expect(chat.choices[0]!.message.content).toMatch(/^I cannot hire: no hire_agent tool was offered to me/);
    child!.kill("SIGTERM");
    expect(await run.exited).toBe(0);
    const lines = run.err().trim().split("\n");
    expect(lines).toEqual([
      "stand-in #1 POST /v1/messages anthropic claude-standin-1 tools: mcp__cadre__hire_agent → 200 text + tool_call mcp__cadre__hire_agent",
      "stand-in #2 POST /v1/chat/completions openai-chat qwen2.5-14b-instruct tools: none → 200 text",
      "stand-in: SIGTERM, stopped after 2 requests",
    ]);
    const logged = (await readFile(log, "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(logged.map((l) => l.request.wire)).toEqual(["anthropic", "openai-chat"]);
  });

  it("--help explains the wires, the policies and the file format", async () => {
    const { code, out } = await runCli(["standin", "--help"]);
    expect(code).toBe(0);
    for (const text of [
      "POST /v1/messages",
      "POST /v1/responses",
      "hire-leads",
      "FILE.json",
      "--latency-ms",
      "SIGTERM",
    ])
      expect(out).toContain(text);
  });

  it("bad options exit 2 with what is allowed, and start nothing", async () => {
    const policy = join(dir, "bad.json");
    await writeFile(policy, JSON.stringify([{ type: "error", error: { kind: "teapot" } }]));
    const cases: Array<[string[], RegExp]> = [
      [["--port", "http"], /--port must be a whole number from 0 to 65535 \(got "http"\)/],
      [
        ["--policy", "genius"],
        /--policy must be hire-leads, echo or a FILE\.json of scripted replies \(got "genius"\)/,
      ],
      [["--model", "m"], /--model needs --connector/],
      [["--policy", "echo", "--connector", "c"], /--connector and --model apply to --policy hire-leads only/],
      [["--policy", policy], /policy file .*bad\.json: \[0\]\.error\.kind must be one of/],
      [["--colour"], /unknown option --colour \(see cadre standin --help\)/],
    ];
    for (const [args, message] of cases) {
      const { code, err, out } = await runCli(["standin", ...args]);
      expect(code, args.join(" ")).toBe(2);
      expect(err).toMatch(message);
      expect(err.trim().split("\n")).toHaveLength(1);
      expect(out).toBe("");
    }
  });
});
