// The bundle loader in real processes (the built dist/launch/bundle-loader.cjs): a chunk runs the
// same from source and from the code cache, the cache is written once and then used, and a stale,
// corrupt or unwritable cache only costs the compile.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const run = promisify(execFile);
const LOADER = fileURLToPath(new URL("../../dist/launch/bundle-loader.cjs", import.meta.url));

/** A chunk that requires another and imports a package through the loader's `import()`. */
const ENTRY = `"use strict";
const { word } = require("./dep.js");
__cadreImport("node:os").then((os) => console.log(word, typeof os.cpus, typeof this));
`;
const dep = (word: string) => `"use strict";\nexports.word = ${JSON.stringify(word)};\n`;

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-loader-"));
  await writeFile(join(dir, "package.json"), '{"type":"commonjs"}\n');
  await writeFile(join(dir, "entry.js"), ENTRY);
  await writeFile(join(dir, "dep.js"), dep("alpha"));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

/** Runs the entry of `dir` through the loader with its cache in `cacheDir`; its stdout. */
async function start(cacheDir = join(dir, ".code-cache")): Promise<string> {
  const script = `require(${JSON.stringify(LOADER)}).loadBundle(${JSON.stringify(dir)}, "entry.js", ${JSON.stringify(cacheDir)});`;
  const { stdout } = await run(process.execPath, ["-e", script]);
  return stdout.trim();
}

/** The cache files and when each was last written. */
async function cacheFiles(cacheDir = join(dir, ".code-cache")): Promise<Map<string, number>> {
  const names = (await readdir(cacheDir)).filter((name) => name.endsWith(".v8"));
  return new Map(
    await Promise.all(names.map(async (n) => [n, (await stat(join(cacheDir, n))).mtimeMs] as const)),
  );
}

describe("the bundle loader", () => {
  it("runs a chunk the same compiled and cached; the cache is written once, then used", async () => {
    expect(await start()).toBe("alpha function object");
    const first = await cacheFiles();
    expect([...first.keys()].map((n) => n.split(".")[0]).sort()).toEqual(["dep", "entry"]);
    expect(await start()).toBe("alpha function object");
    // V8 accepted every file: the loader rewrites only a missing or rejected one.
    expect(await cacheFiles()).toEqual(first);
  });

  it("a chunk changed in place (same length) runs its new source, not the code cached for the old", async () => {
    expect(await start()).toBe("alpha function object");
    await writeFile(join(dir, "dep.js"), dep("omega"));
    expect(await start()).toBe("omega function object");
  });

  it("a corrupt cache file is rejected, the chunk compiled from source and the file replaced", async () => {
    expect(await start()).toBe("alpha function object");
    const before = await cacheFiles();
    for (const name of before.keys()) await writeFile(join(dir, ".code-cache", name), "not V8's code cache");
    expect(await start()).toBe("alpha function object");
    for (const [name] of before)
      expect((await stat(join(dir, ".code-cache", name))).size).toBeGreaterThan(100);
  });

  it("a cache directory that cannot be created is left alone; the command runs", async () => {
    const blocked = join(dir, "a-file");
    await writeFile(blocked, "");
    expect(await start(join(blocked, "cache"))).toBe("alpha function object");
  });
});
