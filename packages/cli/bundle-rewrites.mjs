// The rewrites of each rendered chunk of the `cadre` bundle for the loader that runs it
// (src/launch/bundle-loader.cts), on the chunk's syntax tree (never on its text):
// - `import()` (of the packages left external) calls the loader's instead: the chunks run through
//   `vm.Script`, where `import()` is, on Node 20, an experimental feature that fails once the script
//   comes from V8's code cache;
// - `require("package")` names the package's file, as `import` resolves it;
// - a heavy Node module a chunk only reads members of is required on its first use, not when the
//   chunk loads: a read-only command never starts a child process, hashes or reads a line.
import { isBuiltin } from "node:module";
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseAst } from "rolldown/parseAst";

/** The name under which the loader hands each chunk its `import()`. */
const LOADER_IMPORT = "__cadreImport";

/** Node's modules worth deferring: each loads a tree of Node's own modules that `node -e 0` does not. */
const DEFERRED = new Set(
  [
    "child_process",
    "crypto",
    "dgram",
    "dns",
    "fs/promises",
    "http",
    "http2",
    "https",
    "inspector",
    "net",
    "perf_hooks",
    "readline",
    "readline/promises",
    "stream/promises",
    "timers/promises",
    "tls",
    "worker_threads",
    "zlib",
  ].flatMap((name) => [name, `node:${name}`]),
);

/** Calls `visit(node, parent)` on every node of an ESTree `node`. */
function walk(node, visit, parent = undefined) {
  if (Array.isArray(node)) for (const item of node) walk(item, visit, parent);
  else if (node && typeof node.type === "string") {
    visit(node, parent);
    for (const value of Object.values(node)) if (value && typeof value === "object") walk(value, visit, node);
  }
}

/** The string a `require("…")` call requires, or undefined for any other node. */
function requiredId(node) {
  const [arg] = node.arguments ?? [];
  const isRequire =
    node.type === "CallExpression" &&
    node.callee.type === "Identifier" &&
    node.callee.name === "require" &&
    node.arguments.length === 1 &&
    arg.type === "Literal" &&
    typeof arg.value === "string";
  return isRequire ? arg.value : undefined;
}

/**
 * The file `import` resolves a package to, relative to `outDir`; undefined for Node's own modules.
 * The sources were written as ES modules, so their packages resolve as `import` resolves them (the
 * "import" condition: some packages export nothing else); Node requires an ES module file as well.
 */
function importedFile(outDir, specifier) {
  if (isBuiltin(specifier)) return undefined;
  const path = relative(outDir, fileURLToPath(import.meta.resolve(specifier)))
    .split("\\")
    .join("/");
  return path.startsWith(".") ? path : `./${path}`;
}

/**
 * The top-level `let x = require("node:…")` of deferred modules whose variable is only ever the
 * object of a member access (`x.spawn`, `(0, x.spawn)(…)`): anything else (handed on, converted
 * with `__toESM`, assigned) keeps the module required at once.
 */
function deferrable(program) {
  const candidates = new Map();
  for (const statement of program.body) {
    if (statement.type !== "VariableDeclaration" || statement.declarations.length !== 1) continue;
    const [declarator] = statement.declarations;
    const id = declarator.init ? requiredId(declarator.init) : undefined;
    if (declarator.id.type === "Identifier" && id !== undefined && DEFERRED.has(id))
      candidates.set(declarator.id.name, { declarator, id });
  }
  walk(program, (node, parent) => {
    if (node.type !== "Identifier" || !candidates.has(node.name)) return;
    const candidate = candidates.get(node.name);
    const memberObject = parent?.type === "MemberExpression" && parent.object === node;
    if (node !== candidate.declarator.id && !memberObject) candidates.delete(node.name);
  });
  return [...candidates.values()];
}

/** The rollup/rolldown plugin, for a bundle written to `outDir`. */
export function forTheLoader(outDir) {
  return {
    name: "for-the-loader",
    renderChunk(code) {
      const program = parseAst(code);
      const edits = [];
      walk(program, (node) => {
        if (node.type === "ImportExpression")
          edits.push({ start: node.start, end: node.source.start, text: `${LOADER_IMPORT}(` });
        const id = requiredId(node);
        const file = id !== undefined && !id.startsWith(".") ? importedFile(outDir, id) : undefined;
        if (file)
          edits.push({
            start: node.arguments[0].start,
            end: node.arguments[0].end,
            text: JSON.stringify(file),
          });
      });
      for (const { declarator, id } of deferrable(program)) {
        const module = `require(${JSON.stringify(id)})`;
        const text = `((m) => new Proxy({}, { get: (_, key) => (m ??= ${module})[key] }))()`;
        edits.push({ start: declarator.init.start, end: declarator.init.end, text });
      }
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
}
