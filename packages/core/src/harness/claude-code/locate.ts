// Finds the Claude Code executable the way the Agent SDK would, so readiness can say precisely what is
// missing before a session starts: a configured path, else the native binary the SDK ships in its
// platform package, else `claude` on PATH.
import { createRequire } from "node:module";
// The SDK starts a configured .js/.mjs path with node, anything else directly (sdk.mjs: ProcessTransport).
import { findOnPath, isRunnable, type Located } from "../locate-executable.js";

const SDK = "@anthropic-ai/claude-agent-sdk";

/** The platform packages the SDK looks in, in its order (sdk.mjs: the glibc build before musl on Linux). */
function platformPackages(platform: NodeJS.Platform, arch: string): string[] {
  if (platform === "linux") return [`${SDK}-linux-${arch}`, `${SDK}-linux-${arch}-musl`];
  if (platform === "android") return [`${SDK}-linux-${arch}-android`];
  return [`${SDK}-${platform}-${arch}`];
}

/** The SDK's bundled native binary, when its platform package is installed. */
export function bundledClaudeCode(): string | undefined {
  let sdkRequire: NodeJS.Require;
  try {
    sdkRequire = createRequire(createRequire(import.meta.url).resolve(SDK));
  } catch {
    return undefined;
  }
  const exe = process.platform === "win32" ? ".exe" : "";
  for (const pkg of platformPackages(process.platform, process.arch)) {
    try {
      const path = sdkRequire.resolve(`${pkg}/claude${exe}`);
      if (isRunnable(path)) return path;
    } catch {
      // not installed: try the next one
    }
  }
  return undefined;
}

/**
 * Where Claude Code is. `path` is undefined for the SDK's bundled binary (the SDK finds it itself),
 * else the explicit path to hand to `pathToClaudeCodeExecutable`.
 */
export function locateClaudeCode(
  configured: string | undefined,
  env: NodeJS.ProcessEnv = process.env,
): Located {
  if (configured !== undefined) {
    return isRunnable(configured, true)
      ? { found: true, path: configured, source: "configured" }
      : { found: false, missing: `config.executablePath "${configured}" is not an executable file` };
  }
  const bundled = bundledClaudeCode();
  if (bundled) return { found: true, path: undefined, source: "sdk", where: bundled };
  const onPath = findOnPath(process.platform === "win32" ? "claude.exe" : "claude", env);
  if (onPath) return { found: true, path: onPath, source: "path" };
  return {
    found: false,
    missing: `no Claude Code executable: ${platformPackages(process.platform, process.arch)[0]} (the SDK's bundled binary) is not installed, \`claude\` is not on PATH, and config.executablePath is not set`,
  };
}
