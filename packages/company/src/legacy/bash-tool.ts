// The legacy profile's `bash` tool (C4-7): really runs the command, in a subprocess, in the run's
// working folder. Bounded on every side: a timeout that kills the whole process group, an output
// cap, and an environment built from scratch (PATH, HOME, locale and the Cadre API variables), so a
// vendor key in the server's environment never reaches the command.
import { spawn } from "node:child_process";
import { dirname } from "node:path";
import { type ToolDefinition, textOutcome } from "@cadre/core";
import { Text } from "@cadre/model";
import { Type } from "typebox";
import { toolValidator } from "../tools/validate.js";

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
    const child = spawn("bash", ["-c", command], {
      cwd: options.cwd,
      env: { ...baseEnv(options.cwd), ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
      // Its own process group, so a timeout kills what the command started too.
      detached: true,
    });
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
    const finish = (exitCode: number | null, exitSignal: string | null, spawnError?: Error) => {
      clearTimeout(timer);
      signal?.removeEventListener("abort", onAbort);
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
    child.on("error", (error) => finish(null, null, error));
    child.on("close", (code, exitSignal) => finish(code, exitSignal));
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
