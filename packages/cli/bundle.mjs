// Builds the `cadre` bundle (dist/bundle/) from the compiled packages; `npm run build` runs it after
// tsc. A few dozen files instead of ~1,300 ESM modules, and one lazy chunk per command, so a
// read-only command loads only what it uses. The chunks are CommonJS so that bin/cadre.js can run
// them through V8's code cache (src/launch/bundle-loader.cts), which Node 20 offers to CommonJS only. Our packages and the pure-ESM libraries they are written against are bundled;
// everything else (native addons, the harness SDKs, drivers, pi-ai, whose provider registry must be
// one instance shared with pi-coding-agent) stays an import of its own package, loaded on first use.
import { rm } from "node:fs/promises";
import { dirname, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "rolldown";
import { forTheLoader } from "./bundle-rewrites.mjs";

const HERE = dirname(fileURLToPath(import.meta.url));
const OUT_DIR = `${HERE}/dist/bundle`;

/** Bundled: our workspace packages and the plain ESM libraries they use. Everything else is external. */
const BUNDLED = /^(@cadre\/|typebox(\/|$)|kysely(\/|$)|hono(\/|$)|@hono\/node-server(\/|$))/;

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

await rm(OUT_DIR, { recursive: true, force: true }); // no chunk of an earlier build left behind
await build({
  input: { cadre: `${HERE}/dist/bin.js` },
  platform: "node",
  external: (id) => !id.startsWith(".") && !id.startsWith("/") && !id.startsWith("\0") && !BUNDLED.test(id),
  // A module is kept for the bindings used from it, never for being imported: no module of ours or of
  // the bundled libraries works by side effect on import, and this is what lets a command's chunk
  // leave out the drivers and SDKs it never calls.
  treeshake: { moduleSideEffects: false },
  plugins: [originalImportMetaUrl, forTheLoader(OUT_DIR)],
  output: {
    dir: OUT_DIR,
    format: "cjs",
    strict: true, // the sources are ES modules: strict mode, as they were written for
    // Every start reads and decodes the chunks it loads (V8 keeps their source beside the cached
    // code): ASCII-only text is stored one byte a character, and the doc comments are left out.
    charset: "ascii",
    comments: { legal: true, annotation: false, jsdoc: false },
    // .cjs: CommonJS whatever package.json says, and Node looks up no package.json to know it.
    entryFileNames: "[name].cjs",
    chunkFileNames: "[name]-[hash].cjs",
  },
});
