// What a `cadre` process loads: a read-only command loads no harness (pi-ai, the Pi coding agent's
// SDK, the vendor SDKs), no tokenizer tables and, on SQLite, no PostgreSQL driver; a wake loads its
// harness. Observed in the real built bin: every module Node resolves (ESM) or requires (CommonJS)
// is written to a file by hooks preloaded into the process.
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cliEnv } from "./testing/spawn-cli.js";

const run = promisify(execFile);

/** The ESM resolve hook (runs on Node's hooks thread): appends each resolved URL to the log. */
const HOOKS = `import { appendFileSync } from "node:fs";
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  appendFileSync(process.env.CADRE_TEST_LOAD_LOG, resolved.url + "\\n");
  return resolved;
}
`;
/** Registers the hook, and at exit appends every CommonJS module in require's cache. */
const REGISTER = (hooks: string) => `import { register } from "node:module";
import { appendFileSync } from "node:fs";
import { createRequire } from "node:module";
register(${JSON.stringify(hooks)});
const require = createRequire(import.meta.url);
process.on("exit", () => appendFileSync(process.env.CADRE_TEST_LOAD_LOG, Object.keys(require.cache).join("\\n") + "\\n"));
`;

const HEAVY = {
  "pi-ai": "/@mariozechner/pi-ai/",
  "the Pi coding agent's SDK": "/@mariozechner/pi-coding-agent/",
  "the Claude Agent SDK": "/@anthropic-ai/claude-agent-sdk/",
  "the Codex SDK": "/@openai/codex-sdk/",
  "the tokenizer": "/gpt-tokenizer/",
  "the PostgreSQL driver": "/node_modules/pg/",
};

let dir: string;
let register: string;
let ceoId: string;

/** The packages a `cadre ARGV` process loaded, by the names above, plus whether it opened SQLite. */
async function loads(argv: string[]): Promise<{ heavy: string[]; sqlite: boolean }> {
  const log = join(dir, `load-${Math.random().toString(36).slice(2)}.log`);
  await writeFile(log, "");
  await run(process.execPath, ["--import", register, BIN, ...argv], {
    env: cliEnv({ CADRE_TEST_LOAD_LOG: log, NO_COLOR: "1" }),
    timeout: 120_000,
  });
  const seen = (await readFile(log, "utf8")).split("\n").map((l) => l.replace(/\\/g, "/"));
  return {
    heavy: Object.entries(HEAVY)
      .filter(([, path]) => seen.some((l) => l.includes(path)))
      .map(([name]) => name),
    sqlite: seen.some((l) => l.includes("/better-sqlite3/")),
  };
}

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-lazy-"));
  const hooks = join(dir, "hooks.mjs");
  await writeFile(hooks, HOOKS);
  register = join(dir, "register.mjs");
  await writeFile(register, REGISTER(pathToFileURL(hooks).href));
  await run(process.execPath, [BIN, "company", "create", "--name", "Lazy", "--data", join(dir, "data")], {
    env: cliEnv(),
  });
  const { stdout } = await run(
    process.execPath,
    [BIN, "agents", "list", "--json", "--data", join(dir, "data")],
    {
      env: cliEnv(),
    },
  );
  const parsed = JSON.parse(stdout) as Array<{ id: string }> | { items: Array<{ id: string }> };
  ceoId = (Array.isArray(parsed) ? parsed : parsed.items)[0]!.id;
}, 180_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("what a cadre process loads", () => {
  it("--version loads neither a harness nor the store's drivers", async () => {
    expect(await loads(["--version"])).toEqual({ heavy: [], sqlite: false });
  }, 120_000);

  it.each([
    ["company", "show"],
    ["agents", "list"],
    ["tasks", "list"],
    ["budgets", "show"],
  ])(
    "%s %s on SQLite loads no harness, no tokenizer and no PostgreSQL driver",
    async (...command) => {
      expect(await loads([...command, "--data", join(dir, "data")])).toEqual({ heavy: [], sqlite: true });
    },
    120_000,
  );

  it("a wake loads its harness (the hooks see what is loaded)", async () => {
    const { heavy } = await loads(["wake", ceoId, "--data", join(dir, "data")]);
    expect(heavy).toEqual(expect.arrayContaining(["pi-ai", "the Pi coding agent's SDK"]));
    expect(heavy).not.toContain("the PostgreSQL driver");
  }, 180_000);
});
