// End to end: an endpoint that echoes the key it was sent (the stand-in's leaksKey
// policy: OFFLINE, a loopback server answering every model call with a 400 that quotes the key raw,
// as a Bearer header, base64- and URL-encoded). A real `cadre serve` runs the CEO on Pi
// (openai-compatible), on the REAL Claude Code binary and on the REAL Codex binary against it, each
// with a key of its own. The keys must appear nowhere Cadre puts what a provider said: the API's
// answers (operator and agent tokens), both SSE streams, the CLI's output, the store's file, the
// session files and the server's own output — in none of their forms.
import { randomBytes } from "node:crypto";
import { mkdir, mkdtemp, readdir, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Redactor } from "@cadre/core";
import { REAL_CLAUDE_CODE, REAL_CODEX } from "@cadre/core/testing";
import { leaksKey, startStandin, type StandinServer } from "@cadre/standin";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { cliEnv, runCliProcess, type Running, startCli } from "../testing/spawn-cli.js";

const key = (prefix: string) => `${prefix}${randomBytes(18).toString("base64url")}`;
const PI_KEY = key("sk-pi-leak-");
const CC_KEY = key("sk-ant-api03-");
const CX_KEY = key("sk-proj-");
const KEYS = { pi: PI_KEY, "claude-code": CC_KEY, codex: CX_KEY };
const OPERATOR = `cadre_op_${randomBytes(16).toString("hex")}`;
/** Finds any of the keys in any form a provider quotes it in (the redactor's own forms). */
const finder = Redactor.of(Object.values(KEYS));

let dir: string;
let standin: StandinServer;
let serve: Running | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-leak-"));
  standin = await startStandin({ policy: leaksKey() });
});
afterEach(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  serve = undefined;
  await standin.close();
  await rm(dir, { recursive: true, force: true });
});

async function filesUnder(root: string): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(root, { withFileTypes: true }).catch(() => [])) {
    const path = join(root, e.name);
    if (e.isDirectory()) out.push(...(await filesUnder(path)));
    else if (e.isFile()) out.push(path);
  }
  return out;
}

/** Reads an SSE stream for a while and returns its text (the stream never ends by itself). */
async function sse(url: string, token: string, ms = 1500): Promise<string> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), ms);
  let text = "";
  try {
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` }, signal: abort.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += Buffer.from(value).toString("utf8");
    }
  } catch (error) {
    if (!abort.signal.aborted) throw error;
  } finally {
    clearTimeout(timer);
  }
  return text;
}

describe("a leaking endpoint: the keys appear nowhere", () => {
  it.skipIf(!REAL_CLAUDE_CODE || !REAL_CODEX)(
    "Pi, Claude Code and Codex against an endpoint echoing their keys: API, SSE, CLI, store and files stay clean",
    async () => {
      const data = join(dir, "data");
      const home = join(dir, "home");
      await mkdir(join(home, ".codex"), { recursive: true });
      const env = cliEnv({
        CADRE_OPERATOR_TOKEN: OPERATOR,
        LEAKY_PI_KEY: PI_KEY,
        LEAKY_CODEX_KEY: CX_KEY,
        ANTHROPIC_BASE_URL: standin.anthropicBaseUrl,
        ANTHROPIC_API_KEY: CC_KEY,
        HOME: home,
        CLAUDE_CONFIG_DIR: join(home, ".claude"),
        CODEX_HOME: join(home, ".codex"),
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
        DISABLE_AUTOUPDATER: "1",
      });
      serve = startCli(["serve", "--data", data, "--port", "0"], env);
      let url = "";
      for (let i = 0; i < 600 && !url; i++) {
        url = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(serve.output())?.[1] ?? "";
        if (!url) await new Promise((r) => setTimeout(r, 50));
      }
      expect(url, serve.errors()).not.toBe("");
      const api = async (method: string, path: string, body?: unknown, token = OPERATOR) => {
        const res = await fetch(`${url}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            ...(body !== undefined ? { "content-type": "application/json" } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        const text = await res.text();
        return { status: res.status, text, json: text ? (JSON.parse(text) as any) : undefined };
      };

      const company = await api("POST", "/api/companies", { name: "Leaky Co", goal: "Test redaction." });
      expect(company.status, company.text).toBe(201);
      const companyId = company.json.id as string;
      const ceo = company.json.ceoAgentId as string;
      const connectors = [
        {
          id: "pi",
          kind: "openai-compatible",
          config: {
            baseUrl: standin.openaiBaseUrl,
            apiKeyEnv: "LEAKY_PI_KEY",
            models: [{ id: "leaky-chat-7b", contextWindow: 32768 }],
          },
        },
        { id: "claude-code", kind: "claude-code" },
        {
          id: "codex",
          kind: "codex",
          config: { baseUrl: standin.openaiBaseUrl, apiKeyEnv: "LEAKY_CODEX_KEY" },
        },
      ];
      const runs: string[] = [];
      for (const c of connectors) {
        const added = await api("POST", `/api/companies/${companyId}/connectors`, c);
        expect(added.status, added.text).toBe(201);
        const model = added.json.enabledModels[0] as string;
        const moved = await api("PATCH", `/api/agents/${ceo}/model`, { model, connectorId: c.id });
        expect(moved.status, moved.text).toBe(200);
        const woken = await api("POST", `/api/agents/${ceo}/wake`, {});
        expect(woken.status, woken.text).toBe(202);
        const runId = woken.json.runId as string;
        runs.push(runId);
        let run: any;
        for (let i = 0; i < 1200; i++) {
          run = (await api("GET", `/api/runs/${runId}`)).json;
          if (run.status !== "running") break;
          await new Promise((r) => setTimeout(r, 100));
        }
        expect(run.status, `${c.id}: ${JSON.stringify(run)}`).toBe("failed");
        // The endpoint did leak: the error Cadre kept is the redacted one.
        expect(run.error, c.id).toMatch(/redacted/);
      }
      // Each harness really sent its key and got it echoed (else the test proves nothing).
      const answers = standin.requests
        .filter((r) => r.answered?.kind === "error")
        .map((r) => r.answered?.error ?? "");
      for (const [name, k] of Object.entries(KEYS))
        expect(
          answers.some((a) => a.includes(k)),
          `${name} was echoed`,
        ).toBe(true);

      // The API, for the operator and for an agent token.
      const minted = await api("POST", `/api/agents/${ceo}/keys`, { label: "leak-test" });
      expect(minted.status, minted.text).toBe(201);
      const agentToken = minted.json.token as string;
      const seen: Array<[string, string]> = [];
      for (const token of [OPERATOR, agentToken]) {
        for (const path of [
          `/api/companies/${companyId}/runs`,
          `/api/companies/${companyId}`,
          `/api/companies/${companyId}/connectors`,
          ...runs.flatMap((r) => [
            `/api/runs/${r}`,
            `/api/runs/${r}/events?limit=1000`,
            `/api/runs/${r}/usage`,
          ]),
        ]) {
          const res = await api("GET", path, undefined, token);
          seen.push([`GET ${path} (${token === OPERATOR ? "operator" : "agent"})`, res.text]);
        }
        seen.push(["SSE company", await sse(`${url}/api/companies/${companyId}/events`, token)]);
        for (const r of runs)
          seen.push([
            `SSE run ${r}`,
            await sse(`${url}/api/companies/${companyId}/events?kind=agent_event&run=${r}`, token),
          ]);
      }
      // The CLI, through the server and on the store.
      for (const r of runs) {
        const inspected = await runCliProcess(
          ["sessions", "inspect", r, "--server", url, "--token", OPERATOR],
          env,
        );
        seen.push([`cadre sessions inspect ${r}`, inspected.stdout + inspected.stderr]);
        const usage = await runCliProcess(["usage", "--run", r, "--server", url, "--token", OPERATOR], env);
        seen.push([`cadre usage --run ${r}`, usage.stdout + usage.stderr]);
      }
      const woken = await runCliProcess(["wake", ceo, "--server", url, "--token", OPERATOR], env);
      seen.push(["cadre wake (codex, followed through the server)", woken.stdout + woken.stderr]);
      expect(woken.stdout + woken.stderr).toMatch(/redacted/);
      serve.child.kill("SIGTERM");
      const ended = await serve.exited;
      seen.push(["cadre serve's own output", ended.stdout + ended.stderr]);
      // The store's file and everything else under the data directory (Pi's session files included).
      const files = await filesUnder(data);
      expect(files.some((f) => f.endsWith(".jsonl"))).toBe(true); // Pi wrote its session file
      for (const file of files) seen.push([file, (await readFile(file)).toString("latin1")]);

      const leaks = seen.filter(([, text]) => finder.finds(text)).map(([where]) => where);
      expect(leaks).toEqual([]);
    },
    300_000,
  );
});
