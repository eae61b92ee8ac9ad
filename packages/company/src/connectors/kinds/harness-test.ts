// The connector test of a harness that runs its own loop: start its executable with `--version`
// (the SDK's bundled one, a configured path, or one on PATH). Secrets never reach the answer.
import { execFile } from "node:child_process";
import type { Located } from "@cadre/core";
import type { ConnectorRow } from "@cadre/store";
import { scrubSecrets } from "../credential-shapes.js";
import type { TestAttempt } from "./driver.js";

function runVersion(
  file: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<TestAttempt> {
  const target = [file, ...args].join(" ");
  return new Promise((resolve) => {
    execFile(file, args, { env, timeout: timeoutMs, maxBuffer: 64 * 1024 }, (error, stdout, stderr) => {
      if (error)
        resolve({
          ok: false,
          answered: false,
          target,
          error: `${target} failed: ${scrubSecrets(
            String(stderr || error.message)
              .trim()
              .slice(0, 200),
          )}`,
        });
      else resolve({ ok: true, answered: true, target, answer: String(stdout).trim().slice(0, 80) });
    });
  });
}

/** A harness's test: its executable, located as its session would, answers `--version`. */
export function versionTest(locate: (path: string | undefined, env: NodeJS.ProcessEnv) => Located) {
  return async (
    connector: Pick<ConnectorRow, "config">,
    env: NodeJS.ProcessEnv,
    timeoutMs: number,
  ): Promise<TestAttempt> => {
    const configured = connector.config["executablePath"];
    const located = locate(typeof configured === "string" ? configured : undefined, env);
    if (!located.found)
      return { ok: false, answered: false, target: "the executable", error: located.missing };
    const file = located.path ?? located.where;
    if (!file)
      return {
        ok: false,
        answered: false,
        target: "the executable",
        error: "the SDK's executable was not found",
      };
    // Claude Code's SDK ships a JavaScript entry, which it starts with node.
    return /\.(c|m)?js$/.test(file)
      ? runVersion(process.execPath, [file, "--version"], env, timeoutMs)
      : runVersion(file, ["--version"], env, timeoutMs);
  };
}
