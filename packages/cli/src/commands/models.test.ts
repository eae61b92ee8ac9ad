import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

const ENV = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-models-cli-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli(argv, ENV);

describe("MC-6 aliases at the CLI and config entry points", () => {
  it("`cadre models show` refuses an alias with exit 2 and the explicit ids; an explicit id is shown", async () => {
    const alias = await cli("models", "show", "sonnet", "--data", dir);
    expect(alias.code).toBe(2);
    expect(alias.err).toBe(
      'cadre models: model "sonnet" is an alias; Cadre routes only explicit model ids. Use one of: claude-sonnet-4-6, claude-sonnet-4-5-20250929, claude-sonnet-4-20250514\n',
    );
    const ok = await cli("models", "show", "claude-sonnet-4-5-20250929", "--data", dir, "--json");
    expect(ok.json()).toMatchObject({
      id: "claude-sonnet-4-5-20250929",
      provider: "anthropic",
      contextWindow: 200000,
    });
  });

  it("an alias in cadre.config.json stops every command that opens the data directory", async () => {
    await writeFile(
      join(dir, "cadre.config.json"),
      JSON.stringify({ models: [{ id: "gpt-4o", contextWindow: 128000, maxOutput: 4096 }] }),
    );
    const r = await cli("company", "show", "--data", dir);
    expect(r.code).toBe(2);
    expect(r.err).toContain(
      'model "gpt-4o" is an alias; Cadre routes only explicit model ids. Use one of: gpt-4o-2024-11-20',
    );
  });

  it("a compatible model from cadre.config.json is listed", async () => {
    await writeFile(
      join(dir, "cadre.config.json"),
      JSON.stringify({ models: [{ id: "llama3.1:8b-cli", contextWindow: 131072, maxOutput: 8192 }] }),
    );
    const r = await cli("models", "list", "--provider", "openai-compatible", "--data", dir, "--json");
    expect(r.json().models.map((m: { id: string }) => m.id)).toContain("llama3.1:8b-cli");
  });
});
