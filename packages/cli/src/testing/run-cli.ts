// Runs the `cadre` command in-process for tests, capturing stdout/stderr, with no vendor keys so
// every run is offline unless a test says otherwise.
import type { CliIO } from "../io.js";
import { main } from "../main.js";

export const OFFLINE_ENV: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

export interface CliRun {
  code: number;
  out: string;
  err: string;
  /** The last stdout line, parsed (the `--json` contract). */
  json: () => any;
}

export async function runCli(argv: string[], env: NodeJS.ProcessEnv = OFFLINE_ENV): Promise<CliRun> {
  let out = "";
  let err = "";
  const io: CliIO = {
    out: (t) => void (out += t),
    err: (t) => void (err += t),
    env,
    stdin: (async function* () {})(),
  };
  const code = await main(argv, io);
  return { code, out, err, json: () => JSON.parse(out.trim().split("\n").at(-1) as string) };
}
