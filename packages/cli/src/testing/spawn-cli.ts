// The built `cadre` bin as a real process, for the tests of what several processes do at once
// (concurrent demos, crashes): its exit code and output, and a handle to kill it mid-run.
import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));

/** No vendor keys and no ambient store or tokens: every run is offline, on the store it is given. */
export function cliEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "", ...extra };
  for (const name of ["CADRE_DATABASE_URL", "CADRE_TOKEN", "CADRE_OPERATOR_TOKEN"])
    if (!(name in extra)) delete env[name];
  return env;
}

export interface Exited {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface Running {
  child: ChildProcess;
  /** Stdout lines so far. */
  lines(): number;
  /** Stdout and stderr so far. */
  output(): string;
  errors(): string;
  /** Resolves once stdout has `n` lines (or the process ended first: false). */
  untilLines(n: number): Promise<boolean>;
  exited: Promise<Exited>;
}

export function startCli(argv: string[], env: NodeJS.ProcessEnv = cliEnv()): Running {
  const child = spawn(process.execPath, [BIN, ...argv], { env, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let count = 0;
  const waiters: Array<{ n: number; resolve: (reached: boolean) => void }> = [];
  child.stdout!.on("data", (d: Buffer) => {
    stdout += d.toString();
    count = stdout.split("\n").length - 1;
    for (const w of [...waiters])
      if (count >= w.n) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(true);
      }
  });
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const exited = new Promise<Exited>((resolve) =>
    child.once("close", (code, signal) => {
      for (const w of waiters.splice(0)) w.resolve(false);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return {
    child,
    lines: () => count,
    output: () => stdout,
    errors: () => stderr,
    untilLines: (n) =>
      count >= n || child.exitCode !== null
        ? Promise.resolve(count >= n)
        : new Promise((resolve) => waiters.push({ n, resolve })),
    exited,
  };
}

/** Runs the command to its end. */
export function runCliProcess(argv: string[], env?: NodeJS.ProcessEnv): Promise<Exited> {
  return startCli(argv, env).exited;
}
