// Finds the Codex executable the way @openai/codex-sdk would (sdk/typescript/src/exec.ts:
// findCodexPath): a configured path, else the native binary in @openai/codex's platform package, else
// `codex` on PATH.
import { createRequire } from "node:module";
import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { findOnPath, isRunnable, type Located } from "../locate-executable.js";

const TRIPLES: Record<string, string> = {
  "linux-x64": "x86_64-unknown-linux-musl",
  "linux-arm64": "aarch64-unknown-linux-musl",
  "android-x64": "x86_64-unknown-linux-musl",
  "android-arm64": "aarch64-unknown-linux-musl",
  "darwin-x64": "x86_64-apple-darwin",
  "darwin-arm64": "aarch64-apple-darwin",
  "win32-x64": "x86_64-pc-windows-msvc",
  "win32-arm64": "aarch64-pc-windows-msvc",
};

const PLATFORM_PACKAGES: Record<string, string> = {
  "x86_64-unknown-linux-musl": "@openai/codex-linux-x64",
  "aarch64-unknown-linux-musl": "@openai/codex-linux-arm64",
  "x86_64-apple-darwin": "@openai/codex-darwin-x64",
  "aarch64-apple-darwin": "@openai/codex-darwin-arm64",
  "x86_64-pc-windows-msvc": "@openai/codex-win32-x64",
  "aarch64-pc-windows-msvc": "@openai/codex-win32-arm64",
};

function platformPackage(): { triple: string; pkg: string } | undefined {
  const triple = TRIPLES[`${process.platform}-${process.arch}`];
  const pkg = triple ? PLATFORM_PACKAGES[triple] : undefined;
  return triple && pkg ? { triple, pkg } : undefined;
}

/**
 * The SDK's package.json, looked for along the node_modules directories a resolution from here walks.
 * Its exports are import-only, so `require.resolve` cannot name it, and the CommonJS bundle has no
 * ES module resolution to ask.
 */
function sdkPackageJson(): string | undefined {
  for (const dir of createRequire(import.meta.url).resolve.paths("@openai/codex-sdk") ?? []) {
    const file = join(dir, "@openai", "codex-sdk", "package.json");
    if (existsSync(file)) return file;
  }
  return undefined;
}

/** The binary @openai/codex-sdk would start, when its platform package is installed. */
export function bundledCodex(): string | undefined {
  const target = platformPackage();
  if (!target) return undefined;
  try {
    // Resolved from the SDK's own location, as the SDK does.
    const sdk = sdkPackageJson();
    if (!sdk) return undefined;
    const sdkRequire = createRequire(sdk);
    const codexRequire = createRequire(sdkRequire.resolve("@openai/codex/package.json"));
    const root = join(dirname(codexRequire.resolve(`${target.pkg}/package.json`)), "vendor", target.triple);
    const name = process.platform === "win32" ? "codex.exe" : "codex";
    const current = join(root, "bin", name);
    if (isRunnable(current) && existsSync(join(root, "codex-package.json"))) return current;
    const legacy = join(root, "codex", name);
    return isRunnable(legacy) ? legacy : undefined;
  } catch {
    return undefined;
  }
}

/** Where Codex is; `path` is undefined for the SDK's own binary (the SDK finds it, with its PATH additions). */
export function locateCodex(configured: string | undefined, env: NodeJS.ProcessEnv = process.env): Located {
  if (configured !== undefined) {
    return isRunnable(configured)
      ? { found: true, path: configured, source: "configured" }
      : { found: false, missing: `config.executablePath "${configured}" is not an executable file` };
  }
  const bundled = bundledCodex();
  if (bundled) return { found: true, path: undefined, source: "sdk", where: bundled };
  const onPath = findOnPath(process.platform === "win32" ? "codex.exe" : "codex", env);
  if (onPath) return { found: true, path: onPath, source: "path" };
  const pkg = platformPackage()?.pkg ?? `@openai/codex for ${process.platform}-${process.arch}`;
  return {
    found: false,
    missing: `no Codex executable: ${pkg} (the SDK's binary) is not installed, \`codex\` is not on PATH, and config.executablePath is not set`,
  };
}
