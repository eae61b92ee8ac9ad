// Builds the `cadre` bundle (dist/bundle/) from the compiled packages; `npm run build` runs it after
// tsc. A few dozen files instead of ~1,300 ESM modules, and one lazy chunk per command, so a
// read-only command loads only what it uses. The chunks are CommonJS so that bin/cadre.js can run
// them through V8's code cache (src/launch/bundle-loader.cts), which Node 20 offers to CommonJS only. Our packages and the pure-ESM libraries they are written against are bundled;
// everything else (native addons, the harness SDKs, drivers, pi-ai, whose provider registry must be
// one instance shared with pi-coding-agent) stays an import of its own package, loaded on first use.
import { rm, writeFile } from "node:fs/promises";
import { isBuiltin } from "node:module";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import { parseAst } from "rolldown/parseAst";

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT_DIR = `${HERE}/dist/bundle`;

/** Bundled: our workspace packages and the plain ESM libraries they use. Everything else is external. */
const BUNDLED = /^(@cadre\/|typebox(\/|$)|kysely(\/|$)|hono(\/|$)|@hono\/node-server(\/|$)|croner(\/|$))/;

/**
 * A module's `import.meta.url` is its own compiled file's, as without the bundle: the paths found
 * from it (the web build, the prompt lock, the evals data, an SDK's `require`) stay where they are.
 */
const originalImportMetaUrl = {
  name: "original-import-meta-url",
  transform(code, id) {
    // CommonJS has `import.meta.url` (rolldown derives it from `__filename`) and nothing else of it.
    const other = /import\.meta(?!\.url)/.exec(code);
    if (other)
      this.error(
        `${id}: only import.meta.url works in the CommonJS bundle, not "${code.slice(other.index, other.index + 24)}…"`,
      );
    if (!code.includes("import.meta.url")) return null;
    const fromBundle = JSON.stringify(relative(OUT_DIR, id).split("\\").join("/"));
    return { code: code.replaceAll("import.meta.url", `new URL(${fromBundle}, import.meta.url).href`) };
  },
};

/** The name under which src/launch/bundle-loader.ts hands each chunk its `import()`. */
const LOADER_IMPORT = "__cadreImport";

/** Calls `visit` on every node of an ESTree `node`. */
function walk(node, visit) {
  if (Array.isArray(node)) for (const item of node) walk(item, visit);
  else if (node && typeof node.type === "string") {
    visit(node);
    for (const value of Object.values(node)) if (value && typeof value === "object") walk(value, visit);
  }
}

/**
 * The file `import` resolves a package to, relative to the bundle; undefined for Node's own modules.
 * The sources were written as ES modules, so their packages resolve as `import` resolves them (the
 * "import" condition: some packages export nothing else); Node requires an ES module file as well.
 */
function importedFile(specifier) {
  if (isBuiltin(specifier)) return undefined;
  const path = relative(OUT_DIR, fileURLToPath(import.meta.resolve(specifier)))
    .split("\\")
    .join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * Two rewrites of each chunk, for the loader that runs it (src/launch/bundle-loader.cts):
 * - `import()` (of the packages left external) calls the loader's instead: the chunks run through
 *   `vm.Script`, where `import()` is, on Node 20, an experimental feature that fails once the script
 *   comes from V8's code cache;
 * - `require("package")` names the package's file, as `import` resolves it.
 */
const forTheLoader = {
  name: "for-the-loader",
  renderChunk(code) {
    const edits = [];
    walk(parseAst(code), (node) => {
      if (node.type === "ImportExpression")
        edits.push({ start: node.start, end: node.source.start, text: `${LOADER_IMPORT}(` });
      const [arg] = node.arguments ?? [];
      if (
        node.type === "CallExpression" &&
        node.callee.type === "Identifier" &&
        node.callee.name === "require" &&
        node.arguments.length === 1 &&
        arg.type === "Literal" &&
        typeof arg.value === "string" &&
        !arg.value.startsWith(".")
      ) {
        const file = importedFile(arg.value);
        if (file) edits.push({ start: arg.start, end: arg.end, text: JSON.stringify(file) });
      }
    });
    if (edits.length === 0) return null;
    let out = "";
    let at = 0;
    for (const edit of edits.sort((a, b) => a.start - b.start)) {
      out += code.slice(at, edit.start) + edit.text;
      at = edit.end;
    }
    return { code: out + code.slice(at), map: null };
  },
};

await rm(OUT_DIR, { recursive: true, force: true }); // no chunk of an earlier build left behind
await build({
  input: { cadre: `${HERE}/dist/bin.js` },
  platform: "node",
  external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0") && !BUNDLED.test(id),
  // A module is kept for the bindings used from it, never for being imported: no module of ours or of
  // the bundled libraries works by side effect on import, and this is what lets a command's chunk
  // leave out the drivers and SDKs it never calls.
  treeshake: { moduleSideEffects: false },
  plugins: [originalImportMetaUrl, forTheLoader],
  output: {
    dir: OUT_DIR,
    format: "cjs",
    strict: true, // the sources are ES modules: strict mode, as they were written for
    entryFileNames: "[name].js",
    chunkFileNames: "[name]-[hash].js",
  },
});
// The package around the bundle is `"type": "module"`; its chunks are CommonJS.
await writeFile(`${OUT_DIR}/package.json`, `${JSON.stringify({ type: "commonjs" })}\n`);
