// `cadre serve` as a real process (the built bin): what it prints, the CLI's --server mode against
// it, graceful shutdown, and a killed server restarted on the same data losing nothing acknowledged.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { CliIO } from "../io.js";
import { main } from "../main.js";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
/** A real report.json written by `cadre eval run` offline: behaviour not measured, so G5 has no verdict. */
const FIXTURE = fileURLToPath(
  new URL("../../../web/src/model/__fixtures__/eval-report.json", import.meta.url),
);
const ENV = {
  ...process.env,
  ANTHROPIC_API_KEY: "",
  OPENAI_API_KEY: "",
  CADRE_OPERATOR_TOKEN: undefined,
  CADRE_TOKEN: undefined,
};

let dir: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-serve-"));
});
afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

interface Served {
  child: ChildProcess;
  lines: string[];
  url: string;
  exited: Promise<number | null>;
}

/** Starts `cadre serve` and resolves once it printed what it prints at start. */
function serve(args: string[], env: NodeJS.ProcessEnv = ENV, expectedLines = 2): Promise<Served> {
  const child = spawn("node", [BIN, "serve", "--data", dir, ...args], {
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const lines = out.split("\n").filter((l) => l.length > 0);
      if (lines.length >= expectedLines)
        resolve({ child, lines, url: (lines[0] ?? "").replace("listening on ", ""), exited });
    });
    void exited.then((code) =>
      reject(new Error(`cadre serve exited (${code}) before it was ready: ${stderr}`)),
    );
  });
}

async function cli(env: Record<string, string | undefined>, ...argv: string[]) {
  let out = "";
  let err = "";
  const io: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env: { ...ENV, ...env },
    stdin: (async function* () {})(),
  };
  const code = await main(argv, io);
  return { code, out, err, json: () => JSON.parse(out.trim().split("\n").at(-1) as string) };
}

async function post(url: string, token: string, path: string, body: unknown) {
  const r = await fetch(`${url}${path}`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: r.status, body: (await r.json()) as any };
}

describe("cadre serve", () => {
  it("retires the legacy POST routes only on a report whose G5 is measured and passing, and records the decision", async () => {
    const bare = await cli({}, "serve", "--data", dir, "--retire-legacy-posts");
    expect(bare).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--retire-legacy-posts needs --evidence REPORT\.json/),
    });
    const report = JSON.parse(await readFile(FIXTURE, "utf8"));
    const scripted = join(dir, "scripted.json");
    await writeFile(
      scripted,
      JSON.stringify({
        ...report,
        gates: { ...report.gates, G5: { ...report.gates.G5, pass: null, measured: false } },
      }),
    );
    const refused = await cli({}, "serve", "--data", dir, "--retire-legacy-posts", "--evidence", scripted);
    expect(refused).toMatchObject({
      code: 2,
      err: expect.stringMatching(/refusing to retire .*its G5 was not measured/),
    });
    // The same report as a live connector with its own sensitivity record would write it: G5
    // measured and passing (no scripted run or stand-in can produce one; the serve path is under test).
    const measured = join(dir, "measured.json");
    await writeFile(
      measured,
      JSON.stringify({
        ...report,
        measurement: {
          ...report.measurement,
          source: "live",
          behaviourMeasured: true,
          note: "behaviour measured",
        },
        gates: {
          ...report.gates,
          G5: {
            ...report.gates.G5,
            pass: true,
            measured: true,
            source: "live",
            verdict: true,
            undecided: null,
          },
        },
      }),
    );
    const offline = await cli({}, "serve", "--data", dir, "--retire-legacy-posts", "--evidence", FIXTURE);
    expect(offline).toMatchObject({ code: 2, err: expect.stringMatching(/its G5 was not measured/) });
    const s = await serve(["--port", "0", "--retire-legacy-posts", "--evidence", measured], ENV, 3);
    const token = s.lines[1]!.replace("operator token: ", "");
    const created = await post(s.url, token, "/api/companies", {
      name: "Acme",
      goal: "Retire the legacy routes.",
    });
    const retired = await post(
      s.url,
      token,
      `/api/companies/${created.body.id ?? created.body.company?.id}/agents`,
      {},
    );
    expect(retired.status).toBe(410);
    const log = (await readFile(join(dir, "legacy-retirement.jsonl"), "utf8"))
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(log).toEqual([
      expect.objectContaining({
        decision: "retire-legacy-posts",
        report: measured,
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
      }),
    ]);
    s.child.kill("SIGTERM");
    await s.exited;
  });

  it("prints its URL and a fresh operator token; the CLI's --server mode runs the demo's story against it; SIGTERM stops it cleanly", async () => {
    const s = await serve(["--port", "0"], ENV, 3);
    expect(s.lines).toHaveLength(3);
    expect(s.lines[0]).toMatch(/^listening on http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.lines[1]).toMatch(/^operator token: cadre_op_[\w-]{43}$/);
    const token = s.lines[1]!.slice("operator token: ".length);
    // The dashboard's sign-in link carries the token in the fragment.
    expect(s.lines[2]).toBe(`dashboard: ${s.url}/#token=${token}`);
    const company = await post(s.url, token, "/api/companies", {
      name: "Northwind Robotics",
      goal: "Build warehouse robots.",
    });
    expect(company.status).toBe(201);

    const env = { CADRE_TOKEN: token };
    const wake = await cli(
      env,
      "wake",
      company.body.ceoAgentId,
      "--server",
      s.url,
      "--trigger",
      "start_team_building",
      "--seed",
      "4",
      "--json",
    );
    expect(wake.code).toBe(0);
    expect(wake.err).toMatch(/→ hire_agent \{"name":/);
    expect(wake.json()).toMatchObject({
      terminal: "done",
      modeBefore: "team-building",
      modeAfter: "awaiting-approval",
      initialCue: { tokens: expect.any(Number) },
    });
    const agents = await cli(env, "agents", "list", "--server", s.url, "--json");
    expect((agents.json() as Array<{ via: string }>).length).toBeGreaterThanOrEqual(4);
    const list = (await cli(env, "approvals", "list", "--server", s.url, "--json")).json() as Array<{
      id: string;
      status: string;
    }>;
    expect(list.map((a) => a.status)).toEqual(["pending"]);
    const approve = await cli(
      {},
      "approvals",
      "approve",
      list[0]!.id,
      "--note",
      "Ship it",
      "--server",
      s.url,
      "--token",
      token,
    );
    expect(approve.code).toBe(0);
    expect(approve.out).toMatch(/awaiting-approval → operating/);
    const show = await cli(env, "company", "show", "--server", s.url, "--json");
    expect(show.json()).toMatchObject({ ceoMode: "operating", company: { id: company.body.id } });
    const again = await cli(env, "approvals", "reject", list[0]!.id, "--server", s.url);
    expect(again.code).toBe(2);
    expect(again.err).toMatch(/409.*already decided/);

    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
  });

  it("takes its operator token from CADRE_OPERATOR_TOKEN and then does not print one", async () => {
    const s = await serve(["--port", "0"], { ...ENV, CADRE_OPERATOR_TOKEN: "my-own-operator-token-123" }, 2);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(s.lines).toEqual([
      expect.stringMatching(/^listening on /),
      `dashboard: ${s.url}/ (sign in with CADRE_OPERATOR_TOKEN)`,
    ]);
    expect((await post(s.url, "my-own-operator-token-123", "/api/companies", { name: "A" })).status).toBe(
      201,
    );
    expect((await post(s.url, "wrong-token-000000000000", "/api/companies", { name: "B" })).status).toBe(401);
    s.child.kill("SIGINT");
    expect(await s.exited).toBe(0);
  });

  it("a server killed with SIGKILL and restarted on the same data has everything it acknowledged", async () => {
    const first = await serve(["--port", "0"]);
    const token = first.lines[1]!.slice("operator token: ".length);
    const company = await post(first.url, token, "/api/companies", { name: "Durable Co" });
    const acknowledged: string[] = [];
    for (const [name, department] of [
      ["CTO", "engineering"],
      ["CMO", "marketing"],
      ["CFO", "finance"],
    ] as const) {
      const hire = await post(first.url, token, `/api/companies/${company.body.id}/agents`, {
        name,
        role: name,
        description: "Leads.",
        connectorId: "offline",
        model: "offline-scripted-1",
        department,
      });
      expect(hire.status).toBe(201);
      acknowledged.push(hire.body.id);
    }
    first.child.kill("SIGKILL");
    await first.exited;
    const second = await serve(["--port", "0"]);
    const token2 = second.lines[1]!.slice("operator token: ".length);
    expect(token2).not.toBe(token);
    const agents = await fetch(`${second.url}/api/companies/${company.body.id}/agents`, {
      headers: { authorization: `Bearer ${token2}` },
    });
    const ids = ((await agents.json()) as { items: Array<{ id: string; isCeo: boolean }> }).items
      .filter((a) => !a.isCeo)
      .map((a) => a.id);
    expect(ids.sort()).toEqual(acknowledged.sort());
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });

  it("refuses a busy port and a bad --port with exit 2 and a message", async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", () => resolve()));
    const port = (blocker.address() as { port: number }).port;
    try {
      const busy = await cli({}, "serve", "--port", String(port), "--data", dir);
      expect(busy.code).toBe(2);
      expect(busy.err).toMatch(new RegExp(`port ${port} is already in use`));
    } finally {
      blocker.close();
    }
    for (const bad of ["-1", "70000", "abc"])
      expect((await cli({}, "serve", "--port", bad, "--data", dir)).code, bad).toBe(2);
    expect((await cli({ CADRE_OPERATOR_TOKEN: "short" }, "serve", "--port", "0", "--data", dir)).code).toBe(
      2,
    );
  });
});
