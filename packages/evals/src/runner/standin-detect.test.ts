// No scripted or stand-in model ever certifies behaviour: the offline model, Cadre's own stand-in
// and any model server that announces itself as a stand-in (its x-cadre-standin header, seen by the
// run's gateway on every response) give measured: false for G3–G5, whatever a sensitivity record
// says. A replay of a stand-in's cassettes is a stand-in's answers too.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plumbingCeo, startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProfile } from "../evaluate.js";
import type { CertificateFacts } from "../sensitivity/certificate.js";
import { measurementOf } from "../sensitivity/measurement.js";
import { perfectRecord } from "../testing/records.js";
import { unannouncedDouble } from "../testing/unannounced-double.js";
import type { Trace } from "../trace/types.js";

const ONE = ["empty-single-connector"];
const MODEL = "qwen2.5:14b-instruct-q4_K_M";
let dir: string;
let standin: StandinServer;
let unannounced: { url: string; close(): Promise<void> };

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-standin-detect-"));
  standin = await startStandin({ policy: plumbingCeo() });
  unannounced = await unannouncedDouble(standin.url);
});
afterAll(async () => {
  await unannounced.close();
  await standin.close();
  await rm(dir, { recursive: true, force: true });
});

const traces = (r: { traces: Map<string, Trace[]> }) => [...r.traces.values()].flat();
const run = (baseUrl: string, extra: Parameters<typeof runProfile>[0] | object = {}) =>
  runProfile({
    profile: "semantic",
    connector: "openai-compatible",
    baseUrl,
    model: MODEL,
    samples: 1,
    seed: 1,
    concurrency: 1,
    only: ONE,
    ...extra,
  });

/** A record that claims everything, for the run's own facts: it must not matter on scripted answers. */
const FACTS: CertificateFacts = {
  connector: "openai-compatible:qwen2.5:14b-instruct-q4_K_M",
  connectorKind: "openai-compatible",
  model: MODEL,
  lockHash: "0".repeat(64),
  scenariosHash: "0".repeat(64),
  k: 3,
  seed: 1,
  codeVersion: "0.1.0+000000000000",
};
const PERFECT = { state: "current" as const, record: perfectRecord(FACTS) };
const own = (connector: string) => ({ ...FACTS, connector, connectorKind: connector });
const standinFacts = own("standin");

describe("a model server that says it is a stand-in", () => {
  it("is detected on the wire: each trace says so and why; a server that does not say so is not", async () => {
    const announced = traces(await run(standin.openaiBaseUrl));
    expect(announced[0]).toMatchObject({ source: "live", terminal: "done" });
    expect(announced[0]!.standin).toMatch(/x-cadre-standin header/);
    const silent = traces(await run(unannounced.url));
    expect(silent[0]).toMatchObject({ source: "live", terminal: "done" });
    expect(silent[0]!.standin).toBeUndefined();
    // The same behaviour either way: only what the server says tells them apart.
    expect(silent[0]!.hires).toEqual(announced[0]!.hires);

    // Behaviour on the stand-in's answers is never measured, whatever the sensitivity record says.
    const m = measurementOf(announced, FACTS, PERFECT);
    expect(m).toMatchObject({ source: "scripted", behaviourMeasured: false });
    expect(m.note).toMatch(
      /^behaviour not measured: the model server is a stand-in, not a model: .*x-cadre-standin/,
    );
  }, 120_000);

  it("Cadre's own stand-in (--connector standin) and the offline model are scripted too", async () => {
    const ownRun = traces(
      await runProfile({
        profile: "semantic",
        connector: "standin",
        samples: 1,
        seed: 1,
        concurrency: 1,
        only: ONE,
      }),
    );
    expect(ownRun[0]!.standin).toMatch(/Cadre's own stand-in/);
    expect(
      measurementOf(ownRun, standinFacts, { state: "current", record: perfectRecord(standinFacts) }),
    ).toMatchObject({
      source: "scripted",
      behaviourMeasured: false,
    });
    const offline = traces(await runProfile({ profile: "semantic", samples: 1, seed: 1, only: ONE }));
    expect(
      measurementOf(offline, own("offline"), { state: "current", record: perfectRecord(own("offline")) }),
    ).toMatchObject({
      source: "scripted",
      behaviourMeasured: false,
      note: "behaviour not measured: the offline model is scripted",
    });
  }, 120_000);

  it("a replay of a stand-in's cassettes is still the stand-in's answers", async () => {
    const cassettesDir = join(dir, "cassettes");
    await run(standin.openaiBaseUrl, { cassettes: "record", cassettesDir });
    const before = standin.requests.length;
    const replayed = traces(await run(standin.openaiBaseUrl, { cassettes: "replay", cassettesDir }));
    expect(standin.requests.length).toBe(before);
    expect(replayed[0]).toMatchObject({ source: "replayed" });
    expect(replayed[0]!.standin).toMatch(/replayed from a stand-in's recording .*x-cadre-standin/);
    expect(measurementOf(replayed, FACTS, PERFECT)).toMatchObject({
      source: "scripted",
      behaviourMeasured: false,
    });
  }, 120_000);
});
