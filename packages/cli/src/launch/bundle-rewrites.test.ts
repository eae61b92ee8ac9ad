// The bundle's chunk rewrites (bundle-rewrites.mjs), on chunk code run with a `require` that
// records what it was asked for: a deferred Node module loads on its first use and not before,
// what is not only read from stays required at once, `import()` goes to the loader's.
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
// @ts-expect-error -- plain JS build script, no types
import { forTheLoader } from "../../bundle-rewrites.mjs";

const OUT_DIR = join(dirname(fileURLToPath(import.meta.url)), "../../dist/bundle");
const rewrite = (code: string): string => forTheLoader(OUT_DIR).renderChunk(code)?.code ?? code;

/** Runs chunk `code`; what it required, in order, and its exports. */
function run(code: string): { required: string[]; exports: Record<string, unknown> } {
  const required: string[] = [];
  const require = (id: string) => {
    required.push(id);
    return { spawn: () => `spawned by ${id}`, default: id };
  };
  const exports: Record<string, unknown> = {};
  const imports = (id: string) => Promise.resolve(`imported ${id}`);
  new Function("exports", "require", "__cadreImport", code)(exports, require, imports);
  return { required, exports };
}

describe("the bundle's chunk rewrites", () => {
  it("a heavy Node module only read from is required on its first use, once", () => {
    const chunk = rewrite(`let node_child_process = require("node:child_process");
exports.start = () => (0, node_child_process.spawn)();`);
    const { required, exports } = run(chunk);
    expect(required).toEqual([]);
    const start = exports["start"] as () => string;
    expect(start()).toBe("spawned by node:child_process");
    expect(start()).toBe("spawned by node:child_process");
    expect(required).toEqual(["node:child_process"]);
  });

  it("a module handed on or converted stays required as the chunk loads", () => {
    const chunk = rewrite(`let node_crypto = require("node:crypto");
node_crypto = __toESM(node_crypto);
function __toESM(m) { return m; }
let node_net = require("node:net");
exports.net = node_net;`);
    expect(run(chunk).required).toEqual(["node:crypto", "node:net"]);
  });

  it("import() of a package goes to the loader's; the same text in a string is left alone", async () => {
    const chunk = rewrite(`exports.text = "import(x)";
exports.loaded = import("@openai/codex-sdk");`);
    const { exports } = run(chunk);
    expect(exports["text"]).toBe("import(x)");
    await expect(exports["loaded"]).resolves.toBe("imported @openai/codex-sdk");
  });

  it("a package is required by the file import resolves it to (pi-ai exports nothing to require)", () => {
    const chunk = rewrite(`exports.ai = require("@mariozechner/pi-ai");`);
    expect(run(chunk).required).toEqual(["../../../../node_modules/@mariozechner/pi-ai/dist/index.js"]);
  });
});
