// Starts the `cadre` bundle (CommonJS chunks) through V8's code cache. Parsing and compiling the
// ~1.4 MB a read-only command loads was the largest part of its start; with the cache, V8
// deserialises what it compiled the first time instead. Node 20 offers a code cache to CommonJS
// only (`vm.Script`'s `cachedData`; the compile cache for ES modules is Node 22's), which is why the
// bundle is CommonJS, and so are this loader and bin/cadre.js: a process that loads no ES module
// never starts Node's ES module loader. A cache that is missing, unreadable or rejected by V8
// (another Node version, other V8 flags) only costs the compile: the chunk is compiled from its
// source, as without a cache.
import fs = require("node:fs");
import Module = require("node:module");
import path = require("node:path");
import vm = require("node:vm");

const { existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } = fs;
const { basename, dirname, join, sep } = path;

/** What Node's CommonJS loader calls with a file's source; replaced for the bundle's own files only. */
type Compile = (this: CompiledModule, content: string, filename: string, ...rest: unknown[]) => unknown;
interface CompiledModule {
  exports: unknown;
  require(id: string): unknown;
}

/**
 * A chunk's function: CommonJS's, plus the `import()` the bundle's chunks call (bundle.mjs rewrites
 * theirs to it). `vm.Script` offers `import()` on Node 20 only as an experimental feature, one that
 * fails once the script comes from the code cache.
 */
const WRAPPER = "(function (exports, require, module, __filename, __dirname, __cadreImport) { ";

/** `import()` of a package the bundle leaves external, from here (the same node_modules as the bundle's). */
function importPackage(specifier: string): Promise<unknown> {
  return import(specifier);
}

/**
 * The cache file of one chunk: named by its size and modification time as well as its name, so a
 * chunk changed in place is never run from the code compiled for its old source (V8 itself checks
 * only the source's length).
 */
function cacheFile(cacheDir: string, filename: string): string {
  const { size, mtimeMs } = statSync(filename);
  return join(cacheDir, `${basename(filename)}.${size}.${Math.trunc(mtimeMs)}.v8`);
}

/** Node's module class, as far as loading a file into its cache goes. */
interface ModuleClass {
  new (id: string, parent: CompiledModule): CompiledModule & { load(filename: string): void };
  _cache: Record<string, CompiledModule | undefined>;
}

/**
 * `require` for a bundle chunk: the chunks require each other, Node's modules and the files of the
 * packages they import (bundle.mjs names each package's file as `import` resolves it). Another
 * chunk (`./name.cjs`, a file of `prefix`, which is a real path) is loaded without Node's search for
 * it — the real path of every directory above and the package.json files on the way, a few
 * milliseconds over a command's chunks — into the same module cache, as `require` would: a chunk
 * required again, or while it loads (a cycle), is the module already there.
 */
function requireFor(module: CompiledModule, prefix: string): (id: string) => unknown {
  const Loader = Module as unknown as ModuleClass;
  return (id) => {
    if (!id.startsWith("./") || id.includes("/", 2)) return module.require(id);
    const filename = prefix + id.slice(2);
    const cached = Loader._cache[filename];
    if (cached) return cached.exports;
    const chunk = new Loader(filename, module);
    Loader._cache[filename] = chunk;
    try {
      chunk.load(filename);
    } catch (error) {
      delete Loader._cache[filename];
      throw error;
    }
    return chunk.exports;
  };
}

/**
 * Requires `entry` (a file in `dir`) with every chunk of `dir` compiled through the code cache in
 * `cacheDir`. The code of a chunk compiled in this process is written to the cache as it exits
 * (after the command ran: the functions it called are compiled by then and are in the cache too),
 * each file atomically (written aside, then renamed), so concurrent first runs cannot tear one; a
 * cache directory that cannot be written is left alone.
 */
function loadBundle(dir: string, entry: string, cacheDir: string): void {
  const prefix = dir.endsWith(sep) ? dir : dir + sep;
  const compiled: Array<{ script: vm.Script; file: string }> = [];
  const proto = Module.prototype as unknown as { _compile: Compile };
  const original = proto._compile;
  proto._compile = function (content, filename, ...rest) {
    if (!filename.startsWith(prefix)) return original.call(this, content, filename, ...rest);
    let file: string | undefined;
    let cachedData: Buffer | undefined;
    try {
      file = cacheFile(cacheDir, filename);
      cachedData = readFileSync(file);
    } catch {
      // No cache for this chunk yet: compiled from source below.
    }
    const script = new vm.Script(`${WRAPPER}${content}\n});`, {
      filename,
      ...(cachedData ? { cachedData } : {}),
    });
    if (file && (!cachedData || script.cachedDataRejected)) compiled.push({ script, file });
    const wrapper = script.runInThisContext({ displayErrors: true }) as (...args: unknown[]) => unknown;
    const args = [this.exports, requireFor(this, prefix), this, filename, dirname(filename), importPackage];
    return wrapper.apply(this.exports, args);
  };
  process.once("exit", () => {
    if (compiled.length === 0) return;
    try {
      mkdirSync(cacheDir, { recursive: true });
      for (const { script, file } of compiled) {
        const aside = `${file}.${process.pid}.tmp`;
        writeFileSync(aside, script.createCachedData());
        renameSync(aside, file);
      }
    } catch {
      // A read-only install: every run compiles, as without a cache.
    }
  });
  Module.createRequire(join(prefix, "loader"))(join(prefix, entry));
}

/** `cadre`: the bundle built beside this file (dist/bundle/), its code cache inside it. */
function startBundle(): void {
  const dir = join(__dirname, "..", "bundle");
  if (!existsSync(join(dir, "cadre.cjs"))) {
    console.error(
      "cadre: the CLI is not built yet. Run `npm install` (or `npm run build`) in the Cadre checkout first.",
    );
    process.exit(1);
  }
  loadBundle(dir, "cadre.cjs", join(dir, ".code-cache"));
}

export = { loadBundle, startBundle };
