// The CLI's edges (SPEC §5 "Every command"), through
// the built `cadre` bin as a user runs it: bad input is exit 2 and one line on stderr (a stack only
// with --debug); a --data that is a file, or names no data, is refused and creates nothing unless
// the command creates data; read-only commands work on a read-only data directory and change
// nothing; an unreachable --database is one line; --json leaves stdout to JSON alone; --version.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import { chmod, mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "./testing/run-cli.js";
import { BIN, cliEnv, type Exited, runCliProcess } from "./testing/spawn-cli.js";

// Each test runs the built bin a few times: a loaded machine takes longer, never a different answer.
const PROCESSES = { timeout: 180_000 };

let root: string;
/** A data directory with the demo's company, its CEO awaiting approval. */
let data: string;
let demo: { companyId: string; ceo: { agentId: string }; approvals: Array<{ id: string }> };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), "cadre-edges-"));
  // Readable by every user: the read-only test runs the CLI as another one when it runs as root.
  await chmod(root, 0o755);
  data = join(root, "data");
  const r = await runCliProcess(["demo", "--data", data, "--json", "--seed", "11"]);
  expect(r.code, r.stderr).toBe(0);
  demo = JSON.parse(r.stdout);
});
afterAll(async () => {
  await chmod(data, 0o755).catch(() => {});
  await rm(root, { recursive: true, force: true });
});

/** The stderr of a refusal: exactly one line, no stack trace. */
function oneLine(r: Exited, what: string): string {
  expect(r.code, `${what}: ${r.stderr}`).toBe(2);
  expect(r.stderr.endsWith("\n"), what).toBe(true);
  expect(r.stderr.trimEnd().split("\n"), `${what}: ${r.stderr}`).toHaveLength(1);
  expect(r.stderr, what).not.toMatch(/\n\s+at /);
  return r.stderr;
}

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((done) => probe.listen(0, "127.0.0.1", done));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((done) => probe.close(() => done()));
  return port;
}

describe("bad input", PROCESSES, () => {
  it("every kind: exit 2, one line on stderr naming what was wrong, nothing on stdout", async () => {
    const typo = join(root, "no-such-dir");
    const file = join(root, "a-file");
    await writeFile(file, "not a directory");
    const closed = await closedPort();
    const cases: Array<[string[], RegExp]> = [
      [[], /^cadre: a command is required: demo, company, /],
      [["nope"], /^cadre: unknown command "nope"/],
      [["demo", "--bogus"], /^cadre demo: unknown option --bogus \(see cadre demo --help\)\n/],
      [["demo", "--data", data, "--seed", "abc"], /--seed must be a whole number/],
      [["agents"], /^cadre agents: a subcommand is required: list, set-model, terminate, keys/],
      [["agents", "list", "--all=yes", "--data", data], /--all is a switch and takes no value/],
      [["approvals", "approve", "--data", data], /the approval ID is required/],
      [["approvals", "approve", "apr_x", "--data", data, "--note"], /--note needs a value/],
      [["approvals", "show", "apr_missing", "--data", data], /approval apr_missing not found/],
      [
        ["wake", "agt_missing", "--data", data],
        /"agt_missing" is not an agent id or the name of an active agent/,
      ],
      [["wake", "x", "--trigger", "panic", "--data", data], /--trigger must be one of/],
      [["company", "show", "--data", typo], /no Cadre data in .*no-such-dir \(run `npx cadre demo/],
      [["company", "show", "--data", file], /a-file is a file, not a directory/],
      [["usage", "--data", file], /a-file is a file, not a directory/],
      [["demo", "--data", file], /a-file is a file, not a directory/],
      [["agents", "list", "--database", `postgres://cadre@127.0.0.1:${closed}/x`], /ECONNREFUSED/],
      [["agents", "list", "--server", `http://127.0.0.1:${closed}`, "--token", "t"], /did not answer/],
      [["models", "show", "gpt-5"], /gpt-5-2025-08-07/],
      [["cache-report", "--turns", "1"], /--turns must be a whole number from 2 to 500/],
      [["eval", "run"], /--baseline is required/],
      [["translate"], /--from FORMAT is required/],
      // The operating company's commands under the same rule.
      [["tasks", "show", "task_missing", "--data", data], /task task_missing not found/],
      [["tasks", "list", "--status", "weird", "--data", data], /--status must be among todo, in_progress/],
      [["tasks", "create", "--title", "A\u202eB", "--data", data], /U\+202E/],
      [["run", "--max-wakes", "0", "--data", data], /--max-wakes must be a whole number of at least 1/],
      [["schedules", "set", "agt_missing", "--every", "1h", "--data", data], /is not an agent id/],
      [["budgets", "set", "--usd", "abc", "--data", data], /--usd must be an amount in USD/],
    ];
    // In process (the same main and commands as the bin, without a process per case); the bin's own
    // stderr is checked by the tests below.
    for (const [argv, why] of cases) {
      const r = await runCli(argv);
      const exited: Exited = { code: r.code, signal: null, stdout: r.out, stderr: r.err };
      expect(oneLine(exited, argv.join(" ")), argv.join(" ")).toMatch(why);
      expect(r.out, argv.join(" ")).toBe("");
    }
  });

  it("--debug adds the stack under the one line", async () => {
    const r = await runCliProcess(["company", "show", "--data", join(root, "nothing"), "--debug"]);
    expect(r.code).toBe(2);
    const [first, ...rest] = r.stderr.trimEnd().split("\n");
    expect(first).toMatch(/^cadre company: no Cadre data in /);
    expect(rest.join("\n")).toMatch(/^UsageError: .*\n\s+at /s);
  });

  it("a --note that starts with '-' is the note; a missing value gets our message, not Node's", async () => {
    const dir = join(root, "notes");
    const made = JSON.parse((await runCliProcess(["demo", "--data", dir, "--json", "--seed", "2"])).stdout);
    const id = made.approvals[0].id as string;
    const r = await runCliProcess([
      "approvals",
      "revise",
      id,
      "--note",
      "-1: add a finance lead",
      "--data",
      dir,
    ]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("(note: -1: add a finance lead)");
    const missing = await runCliProcess(["approvals", "approve", id, "--note", "--json", "--data", dir]);
    expect(oneLine(missing, "--note --json")).toBe(
      'cadre approvals approve: --note needs a value (a value starting with "-" can be written --note=-VALUE)\n',
    );
  });
});

describe("where the data is", PROCESSES, () => {
  it("a --data path with no data: refused, and nothing is created — unless the command creates data", async () => {
    const typo = join(root, "typo", "deeper");
    for (const argv of [
      ["company", "show"],
      ["agents", "list"],
      ["approvals", "list"],
      ["approvals", "approve", "apr_x"],
      ["usage"],
      ["wake", "agt_x"],
      ["sessions", "inspect", "run_x"],
      ["mcp", "--agent", "agt_x"],
      ["tasks", "list"],
      ["run", "--until-idle"],
      ["schedules", "list"],
    ]) {
      const r = await runCliProcess([...argv, "--data", typo]);
      expect(oneLine(r, argv.join(" "))).toMatch(
        /no Cadre data in .*typo\/deeper \(run `npx cadre demo --data .*` or `cadre company create --name NAME --data .*` first\)/,
      );
      expect(existsSync(join(root, "typo")), argv.join(" ")).toBe(false);
    }
    const created = await runCliProcess(["company", "create", "--name", "Fresh Co", "--data", typo]);
    expect(created.code, created.stderr).toBe(0);
    expect(existsSync(join(typo, "cadre.db"))).toBe(true);
  });

  it("read-only commands work on a read-only data directory and change nothing; a write says why it cannot", async () => {
    const before = readdirSync(data).sort();
    const mtime = statSync(join(data, "cadre.db")).mtimeMs;
    await chmod(join(data, "cadre.db"), 0o444);
    await chmod(data, 0o555);
    try {
      // As root, permissions do not bind: run as nobody, for whom they do.
      const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      const run = (argv: string[]) => runAs(argv, asUser);
      const [approval] = demo.approvals;
      const runId = JSON.parse((await run(["usage", "--data", data, "--json"])).stdout).companies[0].runs[0]
        .runId as string;
      for (const argv of [
        ["company", "show"],
        ["agents", "list"],
        ["approvals", "list"],
        ["approvals", "show", approval!.id],
        ["usage"],
        ["sessions", "inspect", runId],
        ["sessions", "show", demo.ceo.agentId],
        ["tasks", "list"],
        ["schedules", "list"],
        ["budgets", "show"],
        ["connectors", "list"],
      ]) {
        const r = await run([...argv, "--data", data]);
        expect(r.code, `${argv.join(" ")}: ${r.stderr}`).toBe(0);
        expect(r.stdout.length).toBeGreaterThan(0);
      }
      const show = await run(["company", "show", "--data", data, "--json"]);
      expect(JSON.parse(show.stdout)).toMatchObject({ ceoMode: "awaiting-approval" });
      const approve = await run(["approvals", "approve", approval!.id, "--data", data]);
      expect(oneLine(approve, "approve")).toMatch(
        /is not writable, and this command writes to the store \(read-only commands work there/,
      );
      expect(readdirSync(data).sort()).toEqual(before);
      expect(statSync(join(data, "cadre.db")).mtimeMs).toBe(mtime);
    } finally {
      await chmod(data, 0o755);
      await chmod(join(data, "cadre.db"), 0o644);
    }
  });
});

/** The built bin as another user (uid/gid), with no vendor keys. */
function runAs(argv: string[], user: { uid?: number; gid?: number }): Promise<Exited> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...argv], {
      env: { ...cliEnv(), HOME: root },
      stdio: ["ignore", "pipe", "pipe"],
      ...user,
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.once("close", (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe("--json and --version", PROCESSES, () => {
  it("with --json, stdout is exactly one JSON line for every command; the human stream is on stderr", async () => {
    const runs: string[][] = [
      ["wake", demo.ceo.agentId, "--data", data, "--json", "--seed", "3"],
      ["company", "show", "--data", data, "--json"],
      ["agents", "list", "--data", data, "--json"],
      ["approvals", "list", "--data", data, "--json"],
      ["usage", "--data", data, "--json"],
      ["sessions", "show", demo.ceo.agentId, "--data", data, "--json"],
      ["models", "list", "--json"],
      ["cache-report", "--turns", "3", "--json"],
      ["eval", "scenarios", "--json"],
      ["tasks", "list", "--data", data, "--json"],
      ["schedules", "list", "--data", data, "--json"],
      ["budgets", "show", "--data", data, "--json"],
      ["connectors", "list", "--data", data, "--json"],
      ["run", "--until-idle", "--data", data, "--json"],
    ];
    for (const argv of runs) {
      const r = await runCliProcess(argv);
      const what = argv.slice(0, 2).join(" ");
      expect(r.code, `${what}: ${r.stderr}`).toBe(0);
      const lines = r.stdout.split("\n");
      expect(lines, what).toHaveLength(2);
      expect(lines[1], what).toBe("");
      expect(() => JSON.parse(lines[0] as string), what).not.toThrow();
    }
    // The wake's stream went to stderr, as it happened.
    const wake = await runCliProcess(["wake", demo.ceo.agentId, "--data", data, "--json", "--seed", "4"]);
    expect(wake.stderr).toMatch(/^run run_\w+ — mode awaiting-approval, trigger routine\n/);
    expect(wake.stderr).toMatch(
      /■ done\nmode: awaiting-approval → awaiting-approval\nsession: pi \S+ — resumed\n$/,
    );
  });

  it("the demo's hints are commands a quickstart user can paste: npx cadre …", async () => {
    const r = await runCliProcess(["demo", "--data", join(root, "hints"), "--seed", "6"]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^ {13}details: npx cadre usage --run run_\w+ --data /m);
    expect(r.stdout).toMatch(/^ {2}next {7}npx cadre approvals show apr_\w+ --data /m);
    expect(r.stdout).toMatch(/^ {13}npx cadre approvals approve apr_\w+ --data .* \(or reject \/ revise/m);
    expect(r.stdout).not.toMatch(/(?<!npx )cadre (usage|approvals) /);
  });

  it("--version and -v print the version", async () => {
    const { version } = JSON.parse(
      await import("node:fs/promises").then((fs) =>
        fs.readFile(new URL("../package.json", import.meta.url), "utf8"),
      ),
    ) as { version: string };
    for (const flag of ["--version", "-v"]) {
      const r = await runCliProcess([flag]);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(`cadre ${version}\n`);
    }
  });
});
