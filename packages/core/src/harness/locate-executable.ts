// Shared by the harness locators: is a file something we can start, and where is a command on PATH.
// Synchronous on purpose (readiness is a plain function); never on a hot path.
import { accessSync, constants, statSync } from "node:fs";
import { delimiter, join } from "node:path";

export type Located =
  | {
      found: true;
      /** Explicit path for the SDK; undefined when the SDK finds its own bundled binary. */ path:
        string | undefined;
      source: "configured" | "sdk" | "path";
      where?: string;
    }
  | { found: false; /** What is missing, for a readiness message. */ missing: string };

/**
 * A regular file we may execute. Where the SDK starts a .js/.mjs/.cjs script with node
 * (`scriptsRunWithNode`, Claude Code's SDK does), reading it is enough.
 */
export function isRunnable(path: string, scriptsRunWithNode = false): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, scriptsRunWithNode && /\.(c|m)?js$/.test(path) ? constants.R_OK : constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

export function findOnPath(command: string, env: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (env["PATH"] ?? "").split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, command);
    if (isRunnable(candidate)) return candidate;
  }
  return undefined;
}
