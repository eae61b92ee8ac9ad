import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { UserInputError } from "../errors.js";
import { toPiModel } from "../harness/pi/pi-model.js";
import {
  assertNotAlias,
  findModel,
  listModels,
  modelIdProblem,
  OFFLINE_MODEL_ID,
  localModelIdProblem,
  registerCompatibleModel,
  resolveModel,
} from "./registry.js";
import { loadUserModels } from "./user-models.js";

describe("MC-6 explicit model registry", () => {
  it("lists explicit ids with provider, context window, max output and prices for Anthropic, OpenAI and offline", () => {
    const ids = listModels().map((m) => m.id);
    for (const id of [
      "claude-opus-4-7",
      "claude-sonnet-4-6",
      "claude-sonnet-4-5-20250929",
      "claude-haiku-4-5-20251001",
      "gpt-5.5-2026-04-23",
      "gpt-5-2025-08-07",
      "gpt-5-mini-2025-08-07",
      "gpt-4.1-2025-04-14",
      "o3-2025-04-16",
      OFFLINE_MODEL_ID,
    ]) {
      expect(ids).toContain(id);
    }
    expect(resolveModel("gpt-5-2025-08-07")).toEqual({
      id: "gpt-5-2025-08-07",
      provider: "openai",
      contextWindow: 400000,
      maxOutput: 128000,
      price: { input: 1.25, output: 10, cacheRead: 0.125, cacheWrite: 0 },
    });
    expect(resolveModel("claude-haiku-4-5-20251001")).toMatchObject({
      provider: "anthropic",
      contextWindow: 200000,
      maxOutput: 64000,
      price: { input: 1, output: 5, cacheRead: 0.1, cacheWrite: 1.25 },
    });
    for (const m of listModels()) expect(m.contextWindow).toBeGreaterThan(0);
  });

  it("a dated OpenAI id routes through its family's catalogue entry and is sent dated", () => {
    const model = toPiModel(resolveModel("gpt-5-mini-2025-08-07"));
    expect(model).toMatchObject({ id: "gpt-5-mini-2025-08-07", api: "openai-responses", provider: "openai" });
  });

  const aliases: Array<[string, string[]]> = [
    ["opus", ["claude-opus-4-7", "claude-opus-4-6", "claude-opus-4-5-20251101"]],
    ["sonnet", ["claude-sonnet-4-6", "claude-sonnet-4-5-20250929"]],
    ["haiku", ["claude-haiku-4-5-20251001"]],
    ["claude-sonnet-4-5", ["claude-sonnet-4-5-20250929"]],
    ["claude-opus-4-1", ["claude-opus-4-1-20250805"]],
    ["gpt-5", ["gpt-5-2025-08-07"]],
    ["gpt-5-mini", ["gpt-5-mini-2025-08-07"]],
    ["gpt-4o", ["gpt-4o-2024-11-20"]],
    ["o3", ["o3-2025-04-16"]],
    ["claude-3-5-sonnet-latest", []],
  ];

  it.each(aliases)("refuses the alias %s with an error that lists the explicit ids", (alias, expected) => {
    const problem = modelIdProblem(alias);
    expect(problem?.kind).toBe("alias");
    for (const id of expected) expect(problem?.candidates).toContain(id);
    expect(() => resolveModel(alias)).toThrow(UserInputError);
    expect(() => resolveModel(alias)).toThrow(
      `model "${alias}" is an alias; Cadre routes only explicit model ids. Use one of: ${problem?.candidates.join(", ")}`,
    );
    expect(() => assertNotAlias(alias)).toThrow(/is an alias/);
  });

  it("an unknown id is refused with every explicit id listed; explicit ids pass", () => {
    expect(() => resolveModel("gpt-9")).toThrow(
      /^unknown model "gpt-9". Known explicit ids: .*claude-sonnet-4-5-20250929.*offline-scripted-1/,
    );
    expect(() => assertNotAlias("claude-sonnet-4-6")).not.toThrow();
    expect(findModel("sonnet")).toBeUndefined();
  });
});

describe("MC-6 user models for OpenAI-compatible endpoints", () => {
  it("registers models from cadre.config.json and CADRE_MODELS; the same definition twice is a no-op", async () => {
    const dir = await mkdtemp(join(tmpdir(), "cadre-models-"));
    try {
      await writeFile(
        join(dir, "cadre.config.json"),
        JSON.stringify({
          models: [{ id: "llama3.1:8b-test", contextWindow: 131072, maxOutput: 8192 }],
          other: "kept for its owner",
        }),
      );
      const env = {
        CADRE_MODELS: JSON.stringify([
          {
            id: "qwen2.5-coder:7b-test",
            contextWindow: 32768,
            maxOutput: 4096,
            price: { input: 0.1, output: 0.2 },
          },
        ]),
      };
      const added = await loadUserModels({ dataDir: dir, env });
      expect(added.map((m) => m.id)).toEqual(["llama3.1:8b-test", "qwen2.5-coder:7b-test"]);
      expect(resolveModel("qwen2.5-coder:7b-test")).toEqual({
        id: "qwen2.5-coder:7b-test",
        provider: "openai-compatible",
        contextWindow: 32768,
        maxOutput: 4096,
        price: { input: 0.1, output: 0.2, cacheRead: 0, cacheWrite: 0 },
      });
      await expect(loadUserModels({ dataDir: dir, env })).resolves.toHaveLength(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("refuses only ids that float by their spelling (latest, an empty tag, a vendor alias); deployment names and ids naming no size are the endpoint's to judge (MC-6)", () => {
    for (const id of ["latest", "qwen2.5:latest", "llama3.1:", "mistral-latest"])
      expect(localModelIdProblem(id), id).toMatch(/floating tag/);
    for (const id of [
      "qwen2.5:14b-instruct-q4_K_M",
      "llama-3.1-8b-instruct",
      "llama3.1:8b",
      "Qwen/Qwen2.5-14B-Instruct",
      "gpt-5-codex",
      "standin-resp-1",
      "mistral-nemo-instruct-2407",
      "deepseek-v3",
      "my-azure-deployment",
      "phi3:mini",
    ])
      expect(localModelIdProblem(id), id).toBeUndefined();
    expect(localModelIdProblem("sonnet")).toMatch(/is an alias/);
    expect(localModelIdProblem("bad id 8b")).toMatch(/not valid/);
    expect(() =>
      registerCompatibleModel({ id: "qwen2.5:latest", contextWindow: 8192, maxOutput: 512 }),
    ).toThrow(/floating tag/);
  });

  it("refuses aliases, vendor ids, bad fields and conflicting redefinitions in config, naming where", async () => {
    const load = (models: unknown) => loadUserModels({ env: { CADRE_MODELS: JSON.stringify(models) } });
    await expect(load([{ id: "sonnet", contextWindow: 1000, maxOutput: 100 }])).rejects.toThrow(
      'model "sonnet" is an alias; Cadre routes only explicit model ids. Use one of: claude-sonnet-4-6, claude-sonnet-4-5-20250929, claude-sonnet-4-20250514',
    );
    await expect(load([{ id: "gpt-5", contextWindow: 1000, maxOutput: 100 }])).rejects.toThrow(
      /model "gpt-5" is an alias.*Use one of: gpt-5-2025-08-07/,
    );
    await expect(load([{ id: "gpt-5-2025-08-07", contextWindow: 1000, maxOutput: 100 }])).rejects.toThrow(
      'model "gpt-5-2025-08-07" is already routed to openai; choose another id',
    );
    await expect(load([{ id: "m", contextWindow: 0, maxOutput: 100 }])).rejects.toThrow(
      "CADRE_MODELS: models[0].contextWindow must be a positive whole number of tokens (got 0)",
    );
    await expect(load([{ id: "m", contextWindow: 10, maxOutput: 1, window: 3 }])).rejects.toThrow(
      "CADRE_MODELS: models[0] has unknown field(s) window; allowed: id, contextWindow, maxOutput, price",
    );
    await expect(load({ id: "m" })).rejects.toThrow("CADRE_MODELS: models must be a JSON array");
    await expect(loadUserModels({ env: { CADRE_MODELS: "[" } })).rejects.toThrow(
      /CADRE_MODELS is not valid JSON/,
    );
    registerCompatibleModel({ id: "conflict-test-7b", contextWindow: 10, maxOutput: 5 });
    expect(() =>
      registerCompatibleModel({ id: "conflict-test-7b", contextWindow: 20, maxOutput: 5 }),
    ).toThrow('model "conflict-test-7b" is already registered with a different definition');
  });
});
