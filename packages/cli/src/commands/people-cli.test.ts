// Who did what, and why, through the CLI: named operators (add, list, revoke, whoami), a decision
// through a running API by a named operator, `cadre audit` naming that operator, `cadre runs
// why` back to the approval, the failed-runs list, and OTLP export with --otel-endpoint.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startOtlpReceiver } from "@cadre/company/testing/otlp-receiver";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
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
  dir = await mkdtemp(join(tmpdir(), "cadre-people-cli-"));
});
afterEach(async () => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  await rm(dir, { recursive: true, force: true });
});

async function demo(extra: string[] = [], env?: NodeJS.ProcessEnv) {
  const r = await runCli(["demo", "--data", dir, "--json", "--seed", "5", ...extra], env);
  expect(r.code, r.err).toBe(0);
  return r.json() as { companyId: string; approvals: { id: string }[] };
}

function serve(): Promise<string> {
  const child = spawn("node", [BIN, "serve", "--data", dir, "--port", "0"], {
    env: ENV as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      const m = /^listening on (\S+)$/m.exec(out);
      if (m) resolve(m[1]!);
    });
    child.once("exit", (code) => reject(new Error(`cadre serve exited (${code})`)));
  });
}

describe("cadre operators", () => {
  it("adds an operator with a token shown once, lists and revokes it, and refuses bad input", async () => {
    const { companyId } = await demo();
    const add = await runCli([
      "operators",
      "add",
      "alice",
      "--role",
      "operator",
      "--company",
      companyId,
      "--data",
      dir,
      "--json",
    ]);
    expect(add.code, add.err).toBe(0);
    const added = add.json();
    expect(added).toMatchObject({ name: "alice", role: "operator", companies: [companyId] });
    expect(added.token).toMatch(/^cadre_opr_/);
    const list = await runCli(["operators", "list", "--data", dir]);
    expect(list.out).toMatch(new RegExp(`^alice\\s+operator\\s+${companyId}$`, "m"));
    expect(list.out).not.toContain(added.token);

    const bad = await runCli(["operators", "add", "bob", "--role", "admin", "--data", dir]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--role must be one of viewer, operator, owner");
    const twice = await runCli(["operators", "add", "alice", "--role", "viewer", "--data", dir]);
    expect(twice.code).toBe(2);
    expect(twice.err).toContain('an operator named "alice" exists already');
    const reserved = await runCli(["operators", "add", "operator", "--role", "viewer", "--data", dir]);
    expect(reserved.code).toBe(2);

    const revoke = await runCli(["operators", "revoke", "alice", "--data", dir]);
    expect(revoke.code, revoke.err).toBe(0);
    expect((await runCli(["operators", "list", "--data", dir, "--json"])).json()[0].revokedAt).not.toBeNull();
  });
});

describe("a decision by a named operator, audited and explained", () => {
  it("names the operator in the audit log and explains the CEO's next run back to the approval", async () => {
    const { companyId, approvals } = await demo();
    const alice = (
      await runCli(["operators", "add", "alice", "--role", "operator", "--data", dir, "--json"])
    ).json().token as string;
    const viewer = (
      await runCli(["operators", "add", "vera", "--role", "viewer", "--data", dir, "--json"])
    ).json().token as string;
    const url = await serve();

    const who = await runCli(
      ["operators", "whoami", "--server", url, "--token", alice, "--json"],
      ENV as NodeJS.ProcessEnv,
    );
    expect(who.json()).toEqual({ kind: "operator", name: "alice", role: "operator", companies: null });
    const refused = await runCli(
      ["approvals", "approve", approvals[0]!.id, "--server", url, "--token", viewer],
      ENV as NodeJS.ProcessEnv,
    );
    expect(refused.code).toBe(2);
    expect(refused.err).toContain("vera is a viewer");
    const approved = await runCli(
      ["approvals", "approve", approvals[0]!.id, "--server", url, "--token", alice],
      ENV as NodeJS.ProcessEnv,
    );
    expect(approved.code, approved.err).toBe(0);

    const audit = await runCli(
      ["audit", "--company", companyId, "--actor", "alice", "--server", url, "--token", viewer, "--json"],
      ENV as NodeJS.ProcessEnv,
    );
    expect(audit.code, audit.err).toBe(0);
    expect(audit.json().map((r: { action: string; actorName: string }) => [r.action, r.actorName])).toEqual([
      ["approval.decided", "alice"],
    ]);
    const text = await runCli(["audit", "--data", dir]);
    expect(text.out).toMatch(
      /alice {2}approval\.decided {2}approval \S+: "Strategy for .*": pending → approved/,
    );
    const jsonl = await runCli(["audit", "--data", dir, "--jsonl", "--actor", "alice"]);
    expect(
      jsonl.out
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).action),
    ).toEqual(["approval.decided"]);

    // The CEO's next wake was for the decision: its why ends at alice's approval.
    const wake = await runCli(
      ["run", "--max-wakes", "1", "--server", url, "--token", alice, "--json"],
      ENV as NodeJS.ProcessEnv,
    );
    expect(wake.code, wake.err).toBe(0);
    const runs = await runCli(
      ["runs", "list", "--server", url, "--token", viewer, "--json"],
      ENV as NodeJS.ProcessEnv,
    );
    const last = runs.json().at(-1) as { id: string; trigger: string };
    expect(last.trigger).toBe("approval_decided");
    const why = await runCli(["runs", "why", last.id, "--data", dir]);
    expect(why.code, why.err).toBe(0);
    expect(why.out).toMatch(
      new RegExp(`← operator alice approved .* \\[approval ${approvals[0]!.id}\\] — by operator alice`),
    );
    const failed = await runCli([
      "runs",
      "list",
      "--status",
      "failed",
      "--since",
      "1d",
      "--data",
      dir,
      "--json",
    ]);
    expect(failed.json()).toEqual([]);
  });
});

describe("--otel-endpoint", () => {
  it("exports the demo's run as one span tree to an OTLP receiver", async () => {
    const receiver = await startOtlpReceiver();
    try {
      await demo(["--otel-endpoint", receiver.url]);
      const roots = receiver.spans.filter((s) => s.parentSpanId === null);
      expect(roots.map((r) => r.attributes["gen_ai.operation.name"])).toEqual(["invoke_agent"]);
      const chats = receiver.spans.filter((s) => s.attributes["gen_ai.operation.name"] === "chat");
      expect(chats.length).toBeGreaterThan(0);
      // The spans carry the usage `cadre usage` reports for the run.
      const sum = (k: string) => chats.reduce((n, c) => n + Number(c.attributes[k] ?? 0), 0);
      const cacheRead = sum("gen_ai.usage.cache_read.input_tokens");
      const cacheWrite = sum("gen_ai.usage.cache_creation.input_tokens");
      const usage = (await runCli(["usage", "--data", dir, "--json"])).json().companies[0].usage;
      expect({
        input: sum("gen_ai.usage.input_tokens") - cacheRead - cacheWrite,
        output: sum("gen_ai.usage.output_tokens"),
        cacheRead,
        cacheWrite,
      }).toEqual({
        input: usage.input,
        output: usage.output,
        cacheRead: usage.cacheRead,
        cacheWrite: usage.cacheWrite,
      });
    } finally {
      await receiver.close();
    }
  });
});
