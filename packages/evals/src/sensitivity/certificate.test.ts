// A sensitivity record is a certificate bound to what it measured: a run on a model uses it only
// when the connector (id and kind), the served model, the lock, the scenario set, k, the seed and
// the code are all the run's own — otherwise the report says which differs and behaviour stays not
// measured. `--sensitivity FILE` cannot lift a run with a record from elsewhere.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plumbingCeo, startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateCandidate, recordBaseline, runProfile } from "../evaluate.js";
import type { Trace } from "../trace/types.js";
import { perfectRecord } from "../testing/records.js";
import { unannouncedDouble } from "../testing/unannounced-double.js";
import { type CertificateFacts, runFacts } from "./certificate.js";
import { measurementOf } from "./measurement.js";
import { type SensitivityResult, writeSensitivity } from "./sensitivity.js";

const ONE = ["empty-single-connector"];
const MODEL = "qwen2.5:14b-instruct-q4_K_M";
let dir: string;
let standin: StandinServer;
let model: { url: string; close(): Promise<void> };
let traces: Trace[];
let facts: CertificateFacts;

// A run on a server that does not say it is a stand-in counts as a model's (its policy is
// prompt-blind: what is tested here is only which record a run may use, never behaviour).
const options = () => ({
  profile: "semantic",
  connector: "openai-compatible",
  baseUrl: model.url,
  model: MODEL,
  samples: 1,
  seed: 1,
  concurrency: 1,
  only: ONE,
});

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-certificate-"));
  standin = await startStandin({ policy: plumbingCeo() });
  model = await unannouncedDouble(standin.url);
  const run = await runProfile(options());
  traces = [...run.traces.values()].flat();
  facts = await runFacts(run, 3);
}, 120_000);
afterAll(async () => {
  await model.close();
  await standin.close();
  await rm(dir, { recursive: true, force: true });
});

const current = (record: SensitivityResult) => ({ state: "current" as const, record });

describe("a sensitivity record is bound to what it measured", () => {
  it("names the run's connector, its kind, the served model, the lock, the scenario set, k, seed and code", () => {
    expect(facts).toMatchObject({
      connector: `openai-compatible:${MODEL}`,
      connectorKind: "openai-compatible",
      model: MODEL,
      k: 3,
      seed: 1,
    });
    expect(facts.lockHash).toMatch(/^[0-9a-f]{64}$/);
    expect(facts.scenariosHash).toMatch(/^[0-9a-f]{64}$/);
    expect(facts.codeVersion).toMatch(/^\d+\.\d+\.\d+\+[0-9a-f]{12}$/);
  });

  it("the run's own record, with ≥ 80 % of the generated mutants killed, lets behaviour count", () => {
    expect(measurementOf(traces, facts, current(perfectRecord(facts)))).toMatchObject({
      source: "live",
      behaviourMeasured: true,
    });
  });

  const cases: Array<[keyof CertificateFacts, unknown, RegExp]> = [
    ["connector", "standin", /measured on standin, this run is on openai-compatible:qwen2\.5/],
    [
      "connectorKind",
      "ollama",
      /measured on a connector of kind ollama, this run's is of kind openai-compatible/,
    ],
    ["model", "llama3.1:8b", /measured with model llama3\.1:8b, this run's is qwen2\.5:14b-instruct-q4_K_M/],
    ["lockHash", "f".repeat(64), /measured with prompts ffffffffffff, .*\(the locked texts changed\)/],
    ["scenariosHash", "e".repeat(64), /measured on scenario set eeeeeeeeeeee, .*--only narrowed the run/],
    ["k", 5, /measured at pass\^5, this run uses pass\^3/],
    ["seed", 42, /measured with seed 42, this run's seed is 1/],
    ["codeVersion", "0.0.1+abcdefabcdef", /measured on code 0\.0\.1\+abcdefabcdef, this run's is /],
  ];
  for (const [field, value, reason] of cases)
    it(`a record from another ${field} is refused, saying so`, () => {
      const record = { ...perfectRecord(facts), [field]: value };
      const m = measurementOf(traces, facts, current(record), "their.json");
      expect(m.behaviourMeasured).toBe(false);
      expect(m.note).toMatch(/^behaviour not measured: their\.json does not belong to this run: /);
      expect(m.note).toMatch(reason);
    });

  it("figures are read from the mutant list, not from what the record states; too small a set does not count", () => {
    const record = perfectRecord(facts);
    const lying = {
      ...record,
      mutants: record.mutants.map(({ killedBy: _k, ...m }) => ({ ...m, survived: true as const })),
    };
    const m = measurementOf(traces, facts, current(lying as SensitivityResult));
    expect(m.behaviourMeasured).toBe(false);
    expect(m.note).toMatch(
      new RegExp(`killed 0/${record.total - record.equivalent} mutants \\(0%\\); at least 80% is required`),
    );
    const small = { ...record, mutants: record.mutants.slice(0, 12) };
    expect(measurementOf(traces, facts, current(small)).note).toMatch(
      /it ran 12 generated mutant\(s\) from \d+ operator\(s\); at least 30 from 8 are required/,
    );
    const scripted = { ...record, source: "scripted" as const, measured: false };
    expect(measurementOf(traces, facts, current(scripted)).note).toMatch(/scripted answers/);
    expect(measurementOf(traces, facts, { state: "outdated" }, "old.json").note).toMatch(
      /old\.json is from an older Cadre and does not say what it measured/,
    );
  });

  it("eval run --sensitivity FILE: a stand-in's record cannot lift a run on a model; the run's own can", async () => {
    const baseline = join(dir, "baseline");
    await recordBaseline({ ...options(), out: baseline });
    const borrowed = join(dir, "standin.json");
    await writeSensitivity(
      borrowed,
      perfectRecord({
        ...facts,
        connector: "standin",
        connectorKind: "standin",
        model: "cadre-standin-plumbing-1b",
      }),
    );
    const refused = await evaluateCandidate({
      ...options(),
      baseline,
      out: join(dir, "run-1"),
      sensitivityFile: borrowed,
    });
    expect(refused.report.measurement.behaviourMeasured).toBe(false);
    expect(refused.report.measurement.note).toMatch(
      /measured on standin, this run is on openai-compatible:qwen2\.5/,
    );
    // (one scenario: plumbing such as the baseline's size may fail; no behaviour gate is measured)
    for (const g of ["G3", "G4", "G5"] as const) expect(refused.report.gates[g].measured).toBe(false);
    expect(refused.report.gates.G3.evidence).toMatch(/does not belong to this run/);

    const ownFile = join(dir, "own.json");
    await writeSensitivity(ownFile, perfectRecord(facts));
    const lifted = await evaluateCandidate({
      ...options(),
      baseline,
      out: join(dir, "run-2"),
      sensitivityFile: ownFile,
    });
    expect(lifted.report.measurement).toMatchObject({ behaviourMeasured: true, source: "live" });
    for (const g of ["G3", "G4", "G5"] as const) expect(lifted.report.gates[g].measured).toBe(true);
  }, 120_000);
});
