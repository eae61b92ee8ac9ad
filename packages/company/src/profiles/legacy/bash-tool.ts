// The legacy profile's `bash` tool (C4-7): really runs the command, in a subprocess, in the run's
// working folder. Bounded on every side: a timeout that kills the whole process group, an output
// cap, and an environment built from scratch (PATH, HOME, locale and the Cadre API variables), so a
// vendor key in the server's environment never reaches the command. Each command's process group
// can be recorded with its run before the command starts (onSpawn), so that if Cadre dies while it
// runs, whoever recovers the run kills the group (recovery/recover.ts).
import { spawn } from "node:child_process";
import { dirname } from "node:path";
import { type ToolDefinition, textOutcome } from "@cadre/core";
import { Text } from "@cadre/model";
import { Type } from "typebox";
import { toolValidator } from "../../tools/validate.js";

export const bashSchema = Type.Object(
  { command: Text({ maxLength: 16_000, multiline: true, description: "The bash command to run." }) },
  { additionalProperties: false },
);

export const BASH_DESCRIPTION =
  "Run a bash command in your working folder and read its output (stdout, stderr and exit code).";

export interface BashToolOptions {
  cwd: string;
  /** Added to the minimal environment (e.g. CADRE_API_URL, CADRE_AGENT_TOKEN). */
  env: Record<string, string>;
  timeoutMs?: number;
  /** Bytes of stdout + stderr kept; the rest is counted and dropped. */
  maxOutputBytes?: number;
  /**
   * Called with the process group's id (its leader's pid) once it exists and before the command
   * runs; the command starts only once this resolves, and does not run at all if it rejects.
   */
  onSpawn?: (pgid: number) => Promise<void>;
  /** Called once the group's leader has exited. */
  onExit?: (pgid: number) => Promise<void>;
}

export interface BashResult {
  exitCode: number | null;
  signal: string | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  /** Bytes dropped beyond the cap. */
  droppedBytes: number;
}

export const BASH_DEFAULT_TIMEOUT_MS = 30_000;
export const BASH_DEFAULT_MAX_OUTPUT = 16 * 1024;

function baseEnv(cwd: string): Record<string, string> {
  // The node that runs Cadre comes first, so `node -e` in a command is the same runtime.
  const path = [dirname(process.execPath), process.env["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"].join(":");
  return { PATH: path, HOME: cwd, LANG: process.env["LANG"] ?? "C.UTF-8" };
}

/** Runs one command; resolves when the process and its pipes are done. Never rejects. */
export function runBash(
  command: string,
  options: BashToolOptions,
  signal?: AbortSignal,
): Promise<BashResult> {
  const timeoutMs = options.timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS;
  const cap = options.maxOutputBytes ?? BASH_DEFAULT_MAX_OUTPUT;
  return new Promise((resolve) => {
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let kept = 0;
    let droppedBytes = 0;
    let timedOut = false;
    // The leader waits for one line on stdin before it runs the command: the group is recorded
    // first (onSpawn), so no command runs unrecorded. If Cadre dies before that line, stdin closes
    // and the command never runs. The command then reads an empty stdin, as with no stdin at all.
    const child = spawn("bash", ["-c", 'IFS= read -r _ || exit 0; exec bash -c "$0"', command], {
      cwd: options.cwd,
      env: { ...baseEnv(options.cwd), ...options.env },
      stdio: ["pipe", "pipe", "pipe"],
      // Its own process group, so a timeout kills what the command started too.
      detached: true,
    });
    child.stdin.on("error", () => {}); // a leader killed before it read its line
    const recorded =
      child.pid !== undefined && options.onSpawn ? options.onSpawn(child.pid) : Promise.resolve();
    recorded.then(
      () => child.stdin.end("\n"),
      (error: unknown) => {
        err.push(
          Buffer.from(`the command was not run: ${error instanceof Error ? error.message : String(error)}`),
        );
        killGroup();
      },
    );
    const killGroup = () => {
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        // Already gone.
      }
    };
    const collect = (into: Buffer[]) => (chunk: Buffer) => {
      const room = cap - kept;
      if (room <= 0) {
        droppedBytes += chunk.length;
        return;
      }
      const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
      into.push(part);
      kept += part.length;
      droppedBytes += chunk.length - part.length;
    };
    child.stdout.on("data", collect(out));
    child.stderr.on("data", collect(err));
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);
    const onAbort = () => killGroup();
    signal?.addEventListener("abort", onAbort, { once: true });
    const finish = async (exitCode: number | null, exitSignal: string | null, spawnError?: Error) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
      await recorded.catch(() => {});
      if (child.pid !== undefined) await options.onExit?.(child.pid).catch(() => {});
      const stderr =
        Buffer.concat(err).toString("utf8") + (spawnError ? `cannot run bash: ${spawnError.message}` : "");
      resolve({
        exitCode,
        signal: exitSignal,
        timedOut,
        stdout: Buffer.concat(out).toString("utf8"),
        stderr,
        droppedBytes,
      });
    };
    child.on("error", (error) => void finish(null, null, error));
    child.on("close", (code, exitSignal) => void finish(code, exitSignal));
  });
}

export function formatBashResult(r: BashResult, timeoutMs: number): string {
  const parts = [r.stdout.trimEnd()];
  if (r.stderr.trim().length > 0) parts.push(`[stderr]\n${r.stderr.trimEnd()}`);
  if (r.droppedBytes > 0) parts.push(`[output truncated: ${r.droppedBytes} more bytes]`);
  if (r.timedOut) parts.push(`[timed out after ${Math.round(timeoutMs / 1000)} s; the command was killed]`);
  else parts.push(`[exit code ${r.exitCode ?? `none, killed by ${r.signal}`}]`);
  return parts.filter((p) => p.length > 0).join("\n");
}

export function bashTool(options: BashToolOptions): ToolDefinition<typeof bashSchema> {
  const timeoutMs = options.timeoutMs ?? BASH_DEFAULT_TIMEOUT_MS;
  return {
    name: "bash",
    label: "Bash",
    description: BASH_DESCRIPTION,
    parameters: bashSchema,
    validate: toolValidator("bash", bashSchema),
    async execute(input, context) {
      const result = await runBash(input.command, options, context.signal);
      const failed = result.timedOut || result.exitCode !== 0;
      return textOutcome(formatBashResult(result, timeoutMs), failed, {
        exitCode: result.exitCode,
        signal: result.signal,
        timedOut: result.timedOut,
        droppedBytes: result.droppedBytes,
      });
    },
  };
}
