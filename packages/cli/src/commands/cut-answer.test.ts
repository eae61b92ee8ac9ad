// A model answer cut at its output limit (finish_reason "length") before it held any
// text or tool call is no answer: the wake ends failed, saying why, never "done". The CEO runs on an
// OFFLINE @cadre/standin server speaking the Chat Completions wire that cuts every answer so.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

const MODEL = "llama-3.1-8b-instruct";
let standin: StandinServer;
let cut: boolean;
let dir: string;
beforeAll(async () => {
  standin = await startStandin({
    policy: () =>
      cut ? { content: [], stopReason: "length" } : { content: [{ type: "text", text: "Noted." }] },
  });
});
afterAll(async () => standin.close());
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-cut-answer-"));
});
afterEach(async () => rm(dir, { recursive: true, force: true }));

const cli = (...argv: string[]) => runCli([...argv, "--data", dir]);

describe("an answer cut at max_tokens with no output", () => {
  it("ends the wake failed, saying the answer was cut before it wrote anything; a whole answer ends done", async () => {
    expect((await cli("company", "create", "--name", "Acme")).code).toBe(0);
    const added = await cli(
      "connectors",
      "add",
      "local",
      "--kind",
      "openai-compatible",
      "--base-url",
      standin.openaiBaseUrl,
      "--models",
      MODEL,
      "--context-window",
      "8192",
    );
    expect(added.code, added.err).toBe(0);
    const [ceo] = (await cli("agents", "list", "--json")).json() as Array<{ id: string }>;
    expect((await cli("agents", "set-model", ceo!.id, MODEL, "--connector", "local")).code).toBe(0);

    cut = true;
    const woken = await cli("wake", ceo!.id, "--json");
    expect(woken.code).toBe(1);
    expect(woken.json()).toMatchObject({ terminal: "failed" });
    expect(`${woken.err}${woken.out}`).toMatch(
      /cut at its output limit \(max_tokens\) before it wrote anything/,
    );

    cut = false;
    const whole = await cli("wake", ceo!.id, "--json");
    expect(whole.code, whole.err).toBe(0);
    expect(whole.json()).toMatchObject({ terminal: "done" });
  });
});
