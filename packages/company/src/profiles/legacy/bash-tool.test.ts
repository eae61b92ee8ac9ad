// The legacy bash tool runs real subprocesses: working folder, minimal environment, exit codes,
// output cap, timeout that kills the whole process group.
import { mkdtemp, rm } from "node:fs/promises";
import { existsSync, readFileSync, realpathSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { bashTool, runBash } from "./bash-tool.js";

let cwd: string;
beforeEach(async () => {
  cwd = realpathSync(await mkdtemp(join(tmpdir(), "cadre-bash-")));
});
afterEach(async () => rm(cwd, { recursive: true, force: true }));

/** Running (not merely a zombie waiting for an init that does not reap, as in some containers). */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/\) [ZX] /.test(stat);
  } catch {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  }
}

const exec = async (command: string, options: { timeoutMs?: number; maxOutputBytes?: number } = {}) => {
  const tool = bashTool({
    cwd,
    env: { CADRE_API_URL: "http://127.0.0.1:1", CADRE_AGENT_TOKEN: "cadre_agt_x" },
    ...options,
  });
  const input = tool.validate({ command });
  if (!input.ok) throw new Error(input.message);
  const outcome = await tool.execute(input.value, { toolCallId: "t", signal: undefined });
  return { ...outcome, text: outcome.content.map((c) => (c.type === "text" ? c.text : "")).join("") };
};

describe("bash tool", () => {
  it("runs in the run's folder with only PATH, HOME, LANG and the Cadre variables in its environment", async () => {
    process.env["CADRE_TEST_SECRET_KEY"] = "sk-must-not-leak";
    try {
      const r = await exec(
        'pwd; echo "url=$CADRE_API_URL token=$CADRE_AGENT_TOKEN secret=${CADRE_TEST_SECRET_KEY:-none}"; node -e "console.log(process.version)"',
      );
      expect(r.isError).toBe(false);
      expect(r.text).toBe(
        `${cwd}\nurl=http://127.0.0.1:1 token=cadre_agt_x secret=none\n${process.version}\n[exit code 0]`,
      );
      const names = (await exec("env | cut -d= -f1 | sort")).text.split("\n").slice(0, -1);
      expect(names.filter((n) => !["PWD", "SHLVL", "_", "OLDPWD"].includes(n))).toEqual([
        "CADRE_AGENT_TOKEN",
        "CADRE_API_URL",
        "HOME",
        "LANG",
        "PATH",
      ]);
    } finally {
      delete process.env["CADRE_TEST_SECRET_KEY"];
    }
  });

  it("reports a failing command as an error the model can read, with stderr and the exit code", async () => {
    const r = await exec("echo partial; echo oops >&2; exit 3");
    expect(r.isError).toBe(true);
    expect(r.text).toBe("partial\n[stderr]\noops\n[exit code 3]");
  });

  it("caps the output and says how much was dropped", async () => {
    const r = await exec("head -c 100000 /dev/zero | tr '\\0' 'a'", { maxOutputBytes: 1000 });
    expect(r.text).toContain("a".repeat(1000));
    expect(r.text).not.toContain("a".repeat(1001));
    expect(r.text).toContain("[output truncated: 99000 more bytes]");
  });

  it("kills the command and what it started when the timeout passes", async () => {
    const result = await runBash("sleep 30 & echo $!; wait", { cwd, env: {}, timeoutMs: 300 });
    expect(result.timedOut).toBe(true);
    const child = Number(result.stdout.trim());
    expect(child).toBeGreaterThan(0);
    // SIGKILL is sent to the group before the result; a loaded machine may take a moment to run it.
    await expect.poll(() => alive(child), { timeout: 5_000, interval: 50 }).toBe(false);
    const r = await exec("sleep 30", { timeoutMs: 200 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/timed out after 0 s; the command was killed/);
  });

  it("kills the command when the run is cancelled", async () => {
    const controller = new AbortController();
    const running = runBash("sleep 30", { cwd, env: {} }, controller.signal);
    setTimeout(() => controller.abort(), 50);
    const result = await running;
    expect(result.timedOut).toBe(false);
    expect(result.signal).toBe("SIGKILL");
  });

  it("validates its input like every tool: a command is required, one string", () => {
    const tool = bashTool({ cwd, env: {} });
    expect(tool.validate({}).ok).toBe(false);
    expect(tool.validate({ command: 42 }).ok).toBe(false);
    expect(tool.validate({ command: "ls", extra: 1 }).ok).toBe(false);
  });

  it("records the command's process group before the command runs, and runs nothing when that fails", async () => {
    const seen: string[] = [];
    const marker = join(cwd, "ran");
    const result = await runBash("echo ran > ran; cat", {
      cwd,
      env: {},
      async onSpawn(pgid) {
        // Given every chance to run early, the command has not: it waits for the group to be recorded.
        await sleep(100);
        seen.push(`recorded ${pgid}: alive ${alive(pgid)}, ran ${existsSync(marker)}`);
      },
      async onExit(pgid) {
        seen.push(`ended ${pgid}: ran ${existsSync(marker)}`);
      },
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: "" });
    expect(seen).toEqual([
      expect.stringMatching(/^recorded \d+: alive true, ran false$/),
      expect.stringMatching(/^ended \d+: ran true$/),
    ]);

    const refused = await runBash("echo ran > ran2", {
      cwd,
      env: {},
      onSpawn: async () => {
        throw new Error("the run's lease is gone");
      },
    });
    expect(refused.stderr).toMatch(/the command was not run: the run's lease is gone/);
    expect(existsSync(join(cwd, "ran2"))).toBe(false);
  });
});
