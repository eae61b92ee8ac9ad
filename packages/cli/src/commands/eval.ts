// `cadre eval scenarios|record|run|compare`: a thin layer over @cadre/evals. Progress goes to
// stderr; the report to stdout — with --json to stderr too, and stdout holds only the summary line
// of SPEC §4 (main's JSON guard routes the human stream).
import {
  BREAKS,
  BUILTIN_SCENARIOS_DIR,
  CASSETTE_MODES,
  type CassetteSetting,
  CEO_CONNECTORS,
  type CompareSettings,
  DEFAULT_SAMPLE_CAPS,
  type SampleCaps,
  usdText,
  compareRecordings,
  DEFAULT_COMPARE_SETTINGS,
  type Evaluation,
  evaluateCandidate,
  loadMutations,
  loadScenarios,
  insensitivity,
  measureSensitivity,
  MIN_MUTANTS,
  MIN_OPERATORS,
  MIN_SCORE,
  OPERATORS,
  OPERATOR_NAMES,
  MIN_PASS_FLOOR,
  PROFILES,
  sensitivityFile,
  STANDIN_MODEL,
  writeSensitivity,
  progressLine,
  recordBaseline,
  runOperatingEval,
  renderCaptured,
  renderTerminal,
  SCENARIO_SCHEMA_VERSION,
  summaryOf,
  TRAJECTORY_MODES,
  type TrajectoryMode,
} from "@cadre/evals";
import { parse } from "../args.js";
import { CAPTURE_HELP, captureCommand } from "./eval-capture.js";
import { type CliIO, UsageError, subcommandRequired } from "../io.js";

const DEFAULT_OUT = ".cadre/eval-report";

export const EVAL_HELP = `Usage: cadre eval <scenarios|record|run|compare|sensitivity|operating|capture> [options]

Behaviour evaluation: every scenario × k samples through the real pipeline (real
store, tools, agent loop; the real HTTP server for the legacy profile), versioned traces, a
comparison with a recorded baseline, pass^k, and gates G1–G5 with their evidence.

  cadre eval scenarios [--scenarios DIR]... [--json]
      list the scenarios (each file validated and seeded once; a bad file is named with its field);
      a scenario captured from a run says so, with its label
${CAPTURE_HELP}
  cadre eval operating [--scenarios DIR] [--seed N] [--connector KIND [--base-url URL] [--model ID]] [caps] [--json]
      the operating phase (evals/operating/*.json): each scenario's company set to work (cadre run
      --until-idle, each agent in its own workspace; offline, or with --connector on a kind of eval
      run's --connector below, checked for readiness the same way: the CEO and every member run on
      it) and its checks in code — the wake rules (no self-wake, no wake for finished work, blocked
      work waits, idle schedules make no model call, one run per task, runs bounded), the work's
      rules (a request for changes sends the task back until it is handed in again, past the review
      bound the operator decides, writes outside a workspace are refused and shown, no member closes
      its own task, each run's tools as decided for its role) and what the agents chose (the CEO's
      delegation, deliverables written as files and attached, revisions accepted: measured only on a
      model — on the offline model or a server that says it is a stand-in they are "n/m", with the
      reason); exit 1 when a rule fails. On a live connector each run of a scenario's company is held
      to --max-model-calls, --max-tool-calls, --max-sample-tokens and --max-sample-usd (defaults below),
      and --max-cost-usd is checked before each scenario starts (one not started is reported as
      skipped). --json: { source, connector, model, notMeasured, caps, cost, skipped, scenarios: [{ id,
      passed, runs, modelCalls, costUsd, checks: [{ id, kind, pass, measured, evidence }] }], passed }
  cadre eval record --profile P --out DIR [--samples K] [run options]
      run a profile and write its traces as a baseline (manifest.json + traces/)
  cadre eval run --profile P --baseline DIR [--samples K] [--out DIR] [run options] [compare options]
      run a candidate, compare, print a table per scenario and the gate matrix, write report.json,
      report.md, report.html (and the candidate's traces under DIR/candidate); exit 1 when a gate fails
  cadre eval compare --baseline DIR --candidate DIR [--out DIR] [compare options]
      compare two recorded runs without running anything
  cadre eval sensitivity --baseline DIR [--connector ID] [--samples K] [--k K] [--limit N] [--operator NAME,…]
                         [--mutations DIR] [--record FILE] [--json]
      mutation testing of the gates: the operators below make mutants of the prompts and code facts
      as they are now; each runs as a candidate, and a gate whose verdict fails kills it (the gate
      and scenario are named). Score = killed / (total − equivalent). Progress per mutant on stderr.
      --limit N takes N mutants in turn from each operator (a short run still spans them); --operator
      keeps only those operators; --mutations DIR adds your own mutation files (listed, not scored).
      The record (.cadre/sensitivity/<connector>.json, or --record FILE) is a certificate bound to the
      connector and its kind, the served model, the locked prompts, the scenario set, k, the seed and
      the code version. --json: { connector, model, lockHash, scenariosHash, k, seed, codeVersion,
      mutants: [{ id, operator, diff, killedBy: { gate, scenario, evidence } | survived, equivalent? }],
      killed, total, equivalent, score, measured, certifies, why? }

What a gate's result means: each gate carries \`measured\` and \`source\` (scripted | live |
replayed). Plumbing (G1, G2, and the cue budget, every tool the baseline calls offered, valid
parameters, mode drift, terminal states inside G3–G5) passes or fails on any connector. Behaviour
(G3–G5: every dimension of every sample — terminal status, hire count, roles, parameters, approvals
filed, end mode, tool calls, refused calls and retries, model calls) from scripted answers (the
offline model, the stand-in, any server that says it is one) is NOT MEASURED (pass null), never
PASS, whatever a sensitivity record says; scenario rows then say "plumbing ok". On a model it counts only with a sensitivity
record that is this run's own — same connector, model, prompts, scenarios, k, seed and code — and
whose gates killed ≥ ${MIN_SCORE * 100}% of ≥ ${MIN_MUTANTS} generated mutants from ≥ ${MIN_OPERATORS} operators; otherwise the
report says which fact differs or what is missing. G4 passes only on ≥ ${DEFAULT_COMPARE_SETTINGS.minBehaviourScenarios} scenarios (else NOT
ENOUGH SCENARIOS). The sensitivity run's false-alarm control runs the unmutated prompts twice more,
on other seeds, against the same reference. An offline run exits 1 only on a plumbing failure.
Mutation operators:
${OPERATORS.map((o) => `  ${o.name}: ${o.summary}`).join("\n")}

Run options:
  --profile P          ${Object.keys(PROFILES).join(" | ")}
  --samples K          samples per scenario (default 8)
  --seed N             run seed; sample i of scenario s gets a seed derived from it (record: default random,
                       reported; run: default the baseline's, so samples are paired with the baseline's)
  --concurrency N      samples in flight at once (default: CPUs, at most 4)
  --connector KIND     the CEO's connector: ${CEO_CONNECTORS.join(" | ")} (default offline).
                       anthropic, openai: need ANTHROPIC_API_KEY / OPENAI_API_KEY (or --base-url for a gateway);
                       openai-compatible: needs --base-url and --model; claude-code: runs the real Claude Code
                       binary against --base-url (an Anthropic Messages server; ANTHROPIC_BASE_URL works too; a
                       loopback one needs no key) or api.anthropic.com with ANTHROPIC_API_KEY; codex: runs the
                       real Codex binary against --base-url (an OpenAI Responses server) or api.openai.com with
                       OPENAI_API_KEY; standin starts the built-in stand-in on loopback (scripted and
                       prompt-blind: it exercises the live path, never behaviour). A model server that says it
                       is a stand-in (the x-cadre-standin header of cadre standin) counts as scripted on any
                       kind. Every live kind reaches its model server through the run's rate gateway:
                       a 429 is retried after its retry-after (or a doubling back-off), at most 4 times, and
                       halves the model requests in flight (raised again as calls succeed)
  --base-url URL       the model server, e.g. http://127.0.0.1:11434/v1 (openai-compatible: required)
  --model ID           the CEO's model id (explicit; default: the kind's first model; standin ${STANDIN_MODEL})
Caps (enforced in code by the same spend control as every wake; printed at the start and in the report):
  --max-model-calls N  model calls per sample (default ${DEFAULT_SAMPLE_CAPS.modelCalls})
  --max-tool-calls N   tool calls per sample (default ${DEFAULT_SAMPLE_CAPS.toolCalls}); the call past the cap is not run
  --max-sample-tokens N  tokens per sample, input + output + cache (default ${DEFAULT_SAMPLE_CAPS.tokens})
  --max-sample-usd X   cost per sample at the model registry's price (default $${DEFAULT_SAMPLE_CAPS.costUsd})
  --max-sample-seconds N  wall time per sample (default ${DEFAULT_SAMPLE_CAPS.wallTimeMs / 1000})
  --max-cost-usd X     the whole run's cost limit: each sample starts with a share of what is left reserved, and
                       each model call is reserved against it first; once spent, the samples not started are
                       skipped and the report says how many and why. A model with no known price has cost
                       "unknown" (never $0): the limit then cannot be trusted, and the run says so
  A sample that hits a cap ends failed with the cap named in its trace (trace.cap); the run goes on.
  Traces carry each call's and each sample's cost (trace.cost; null = unknown).
  --scenarios DIR      scenario directory, repeatable (default ${BUILTIN_SCENARIOS_DIR})
  --only ID,ID         only these scenarios
  --break NAME         a deliberately broken candidate (the gate it must fail in brackets):
${Object.values(BREAKS)
  .map((b) => `                         ${b.name} [${b.expectedFailure}]: ${b.description}`)
  .join("\n")}
  --cassettes MODE     ${CASSETTE_MODES.join(" | ")} (default off). record: store every model answer under the
                       recording's cassettes/ (record: --out DIR/cassettes; run: --out DIR/candidate/cassettes).
                       replay: answer from cassettes only (run: the baseline's cassettes/), offline and with no
                       key. replay-or-record: answer what is recorded, send a miss to the connector and record
                       it (run: into the baseline's cassettes/), so the next replay hits. A key is a hash of the
                       connector kind, model id, system prompt, tool schemas, MCP server config and messages:
                       a changed prompt, tool or config never replays a stale answer. Under replay a miss stops
                       the run naming the scenario, sample, key and what differed from the nearest recording
                       ("tools changed", "system prompt changed", …); a damaged cassette file stops it before
                       any sample. Pi-routed connectors record each model call; claude-code and codex record
                       the wake's event stream and replay it without launching the binary (the company tools
                       run for real; a tool that answers otherwise stops the replay as diverged). Replayed
                       samples are marked "replayed": their usage and latency are the recording's, not live
  --cassettes-dir DIR  where cassettes are recorded or replayed from, instead of the default above
Compare options:
  --out DIR            report directory (default ${DEFAULT_OUT})
  --k K                pass^k's k (default ${DEFAULT_COMPARE_SETTINGS.k}); a scenario passes at pass^k ≥ --min-pass. With fewer
                       samples per scenario than k, pass^k cannot be computed: the report says "pass^k needs k
                       samples", no behaviour gate passes (a failure still fails) and the run is incomplete
  --min-pass X         from ${MIN_PASS_FLOOR} to 1 (default ${DEFAULT_COMPARE_SETTINGS.minPassK})
  --trajectory MODE    how each sample's tool calls are matched with the baseline's samples (always checked):
                       strict (same calls, same order) | unordered (same calls, any order) | subset (no call the
                       baseline does not make) | superset (every call the baseline makes; extra calls are fine).
                       Default ${DEFAULT_COMPARE_SETTINGS.trajectory}. Repeats of one call in a row count once (how many hires is
                       the hire count's question)
  --sensitivity FILE   run: the connector's sensitivity record (default .cadre/sensitivity/<connector>.json); used
                       only when it was measured on this run's connector, model, prompts, scenarios, k, seed
                       and code — a file from elsewhere is refused with the fact that differs
  --cross-source       compare even when the baseline was recorded on another connector or model (refused
                       otherwise: a live candidate is compared only with a baseline of its own connector and
                       model); the report then names both sources and says CROSS-SOURCE
  --json               stdout holds one JSON line: { scenarios: [{ id, passed, … }], toolCoverage, cueTokens,
                       gates: { Gn: { pass, measured, source, evidence } } } (the tables and the gate matrix
                       then go to stderr)

Scenario files: JSON, schemaVersion ${SCENARIO_SCHEMA_VERSION}; see evals/README.md.`;

const OPTIONS = {
  help: { type: "boolean", short: "h" },
  json: { type: "boolean" },
  profile: { type: "string" },
  samples: { type: "string" },
  seed: { type: "string" },
  concurrency: { type: "string" },
  connector: { type: "string" },
  scenarios: { type: "string", multiple: true },
  only: { type: "string" },
  break: { type: "string" },
  cassettes: { type: "string" },
  "cassettes-dir": { type: "string" },
  out: { type: "string" },
  baseline: { type: "string" },
  candidate: { type: "string" },
  k: { type: "string" },
  "min-pass": { type: "string" },
  trajectory: { type: "string" },
  "base-url": { type: "string" },
  model: { type: "string" },
  sensitivity: { type: "string" },
  mutations: { type: "string" },
  limit: { type: "string" },
  operator: { type: "string" },
  record: { type: "string" },
  "max-model-calls": { type: "string" },
  "max-tool-calls": { type: "string" },
  "max-sample-tokens": { type: "string" },
  "max-sample-usd": { type: "string" },
  "max-sample-seconds": { type: "string" },
  "max-cost-usd": { type: "string" },
  "cross-source": { type: "boolean" },
} as const;

type Values = ReturnType<typeof parse<typeof OPTIONS>>["values"];

function wholeNumber(name: string, raw: string | undefined, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,15}$/.test(raw) || Number(raw) < min)
    throw new UsageError(`eval: --${name} must be a whole number ≥ ${min} (got "${raw}")`);
  return Number(raw);
}

function usdAmount(name: string, raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d{1,9}(\.\d{1,9})?$/.test(raw) || !(Number(raw) > 0))
    throw new UsageError(`eval: --${name} must be a number of USD > 0, e.g. 0.5 (got "${raw}")`);
  return Number(raw);
}

function capsOf(values: Values): Partial<SampleCaps> {
  const caps: Partial<SampleCaps> = {};
  const set = <K extends keyof SampleCaps>(key: K, value: number | undefined) => {
    if (value !== undefined) caps[key] = value as SampleCaps[K];
  };
  set("modelCalls", wholeNumber("max-model-calls", values["max-model-calls"], 1));
  set("toolCalls", wholeNumber("max-tool-calls", values["max-tool-calls"], 1));
  set("tokens", wholeNumber("max-sample-tokens", values["max-sample-tokens"], 1));
  set("costUsd", usdAmount("max-sample-usd", values["max-sample-usd"]));
  const seconds = wholeNumber("max-sample-seconds", values["max-sample-seconds"], 1);
  set("wallTimeMs", seconds === undefined ? undefined : seconds * 1000);
  return caps;
}

function need(sub: string, name: string, value: string | undefined): string {
  if (value === undefined) throw new UsageError(`eval ${sub}: --${name} is required (see cadre eval --help)`);
  return value;
}

function allowOnly(sub: string, values: Values, allowed: string[]): void {
  const extra = Object.keys(values).filter((k) => !allowed.includes(k) && !["help", "json"].includes(k));
  if (extra.length > 0)
    throw new UsageError(`eval ${sub}: --${extra[0]} does not apply here (see cadre eval --help)`);
}

const RUN_KEYS = [
  "profile",
  "samples",
  "seed",
  "concurrency",
  "connector",
  "scenarios",
  "only",
  "break",
  "cassettes",
  "cassettes-dir",
  "base-url",
  "model",
  "max-model-calls",
  "max-tool-calls",
  "max-sample-tokens",
  "max-sample-usd",
  "max-sample-seconds",
  "max-cost-usd",
];
const COMPARE_KEYS = ["out", "baseline", "k", "min-pass", "trajectory"];

function runOptions(sub: string, values: Values, io: CliIO, profileRequired = true) {
  if (values["cassettes-dir"] !== undefined && (values.cassettes ?? "off") === "off")
    throw new UsageError(`eval ${sub}: --cassettes-dir needs --cassettes record, replay or replay-or-record`);
  return {
    profile: profileRequired ? need(sub, "profile", values.profile) : "semantic",
    samples: wholeNumber("samples", values.samples, 1) ?? 8,
    env: io.env,
    onProgress: (p: Parameters<typeof progressLine>[0]) => io.err(progressLine(p)),
    onNotice: (text: string) => io.err(`${text}\n`),
    caps: capsOf(values),
    ...(values["max-cost-usd"] !== undefined
      ? { maxCostUsd: usdAmount("max-cost-usd", values["max-cost-usd"]) as number }
      : {}),
    ...(values.seed !== undefined ? { seed: wholeNumber("seed", values.seed, 0) as number } : {}),
    ...(values.concurrency !== undefined
      ? { concurrency: wholeNumber("concurrency", values.concurrency, 1) as number }
      : {}),
    ...(values.connector !== undefined ? { connector: values.connector } : {}),
    ...(values["base-url"] !== undefined ? { baseUrl: values["base-url"] } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    ...(values.scenarios ? { scenarioDirs: values.scenarios } : {}),
    ...(values.only
      ? {
          only: values.only
            .split(",")
            .map((s) => s.trim())
            .filter(Boolean),
        }
      : {}),
    ...(values.break !== undefined ? { break: values.break } : {}),
    ...(values.cassettes !== undefined ? { cassettes: cassetteSetting(values.cassettes) } : {}),
    ...(values["cassettes-dir"] !== undefined ? { cassettesDir: values["cassettes-dir"] } : {}),
  };
}

function cassetteSetting(raw: string): CassetteSetting {
  if (!(CASSETTE_MODES as readonly string[]).includes(raw))
    throw new UsageError(`eval: --cassettes must be one of ${CASSETTE_MODES.join(", ")} (got "${raw}")`);
  return raw as CassetteSetting;
}

function compareSettings(values: Values): Partial<CompareSettings> {
  const settings: Partial<CompareSettings> = {};
  const k = wholeNumber("k", values.k, 1);
  if (k !== undefined) settings.k = k;
  if (values["min-pass"] !== undefined) {
    const x = Number(values["min-pass"]);
    if (!/^\d+(\.\d+)?$/.test(values["min-pass"]) || !(x >= MIN_PASS_FLOOR && x <= 1))
      throw new UsageError(
        `eval: --min-pass must be a number from ${MIN_PASS_FLOOR} to 1 (got "${values["min-pass"]}"): below ${MIN_PASS_FLOOR} a scenario that fails more often than it passes would pass`,
      );
    settings.minPassK = x;
  }
  if (values.trajectory !== undefined) {
    if (!(TRAJECTORY_MODES as readonly string[]).includes(values.trajectory))
      throw new UsageError(
        `eval: --trajectory must be one of ${TRAJECTORY_MODES.join(", ")} (got "${values.trajectory}")`,
      );
    settings.trajectory = values.trajectory as TrajectoryMode;
  }
  return settings;
}

function printEvaluation(io: CliIO, evaluation: Evaluation, json: boolean | undefined): number {
  io.out(renderTerminal(evaluation.report));
  io.out(renderCaptured(evaluation.report));
  io.out(`report: ${evaluation.files.html} (also report.json, report.md)\n`);
  if (json) io.out(`${JSON.stringify(summaryOf(evaluation.report, evaluation.files))}\n`);
  return evaluation.report.passed ? 0 : 1;
}

async function scenariosCommand(values: Values, io: CliIO): Promise<number> {
  allowOnly("scenarios", values, ["scenarios", "only"]);
  const loaded = await loadScenarios(values.scenarios, values.only?.split(","));
  for (const { scenario: s, file } of loaded) {
    const ready = s.connectors.filter((c) => c.ready).map((c) => c.id);
    io.out(
      `${s.id.padEnd(34)} ${s.expectMode.padEnd(18)} team ${s.team.filter((m) => m.status === "active").length}, approvals ${s.approvals.map((a) => a.status).join("/") || "none"}, ready: ${ready.join(", ") || "none"}\n`,
    );
    io.out(`${"".padEnd(34)} ${s.title} — ${file}\n`);
    if (s.captured)
      io.out(
        `${"".padEnd(34)} captured from run ${s.captured.run.id}: ${s.captured.label ? `${s.captured.label}, to avoid` : "to hold"}${s.trigger ? `; woken by ${s.trigger}` : ""}\n`,
      );
  }
  io.out(`${loaded.length} scenario(s)\n`);
  if (values.json) {
    io.out(
      `${JSON.stringify({ scenarios: loaded.map(({ scenario: s, file, hash }) => ({ id: s.id, title: s.title, mode: s.expectMode, file, hash, connectors: s.connectors.map((c) => ({ id: c.id, kind: c.kind, ready: c.ready, enabledModels: c.enabledModels })), team: s.team.length, approvals: s.approvals.map((a) => ({ type: a.type, status: a.status })), captured: s.captured ? { run: s.captured.run.id, label: s.captured.label ?? null, expect: s.captured.expect } : null })) })}\n`,
    );
  }
  return 0;
}

async function sensitivityCommand(values: Values, io: CliIO): Promise<number> {
  allowOnly("sensitivity", values, [
    ...RUN_KEYS.filter((k) => k !== "break" && k !== "profile"),
    "baseline",
    "out",
    "mutations",
    "record",
    "k",
    "limit",
    "operator",
  ]);
  const baseline = need("sensitivity", "baseline", values.baseline);
  const options = runOptions("sensitivity", values, io, false);
  const k = wholeNumber("k", values.k, 1) ?? DEFAULT_COMPARE_SETTINGS.k;
  const limit = wholeNumber("limit", values.limit, 1);
  const operators = values.operator
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = operators?.find((o) => !OPERATOR_NAMES.includes(o));
  if (unknown)
    throw new UsageError(
      `eval sensitivity: --operator "${unknown}" is not an operator; operators: ${OPERATOR_NAMES.join(", ")}`,
    );
  const own = values.mutations ? await loadMutations(values.mutations) : [];
  const result = await measureSensitivity({
    ...options,
    samples: wholeNumber("samples", values.samples, 1) ?? k,
    k,
    baseline,
    out: values.out ?? ".cadre/eval-sensitivity",
    selection: { ...(operators ? { operators } : {}), ...(limit !== undefined ? { limit } : {}) },
    own,
    onMutant: (m, done, total) =>
      io.err(
        `mutant ${done}/${total} ${m.id}: ${m.killedBy ? `killed by ${m.killedBy.gate}${m.killedBy.scenario ? ` in ${m.killedBy.scenario}` : ""}` : m.scenarios.length === 0 ? "survived (no scenario starts in a mode it changes)" : "survived"}${m.equivalent ? " (equivalent)" : ""}\n`,
      ),
  });
  const file = values.record ?? sensitivityFile(result.connector);
  await writeSensitivity(file, result);
  const why = insensitivity(result);
  const pct = result.score === null ? "no score" : `${Math.round(result.score * 100)}%`;
  io.out(
    `sensitivity on ${result.connector} (model ${result.model ?? "unknown"}; ${result.measured ? `${result.source} samples` : result.note}):\n`,
  );
  io.out(
    `  ${result.killed}/${result.total - result.equivalent} generated mutants killed (${pct}); ${result.equivalent} equivalent, left out of the score; ${result.operators.length} operators\n`,
  );
  io.out(`reference: ${result.reference.note}\n`);
  if (result.notRun) io.out(`not run: ${result.notRun.count} mutant(s) of the tools: ${result.notRun.why}\n`);
  if (result.control)
    io.out(
      `control (two unmutated candidates, seeds ${result.control.runs.map((r) => r.seed).join(" and ")}): ${result.control.detected ? `FALSE ALARM by ${result.control.gate}: ${result.control.evidence}` : "no gate failed"}\n`,
    );
  const generated = result.mutants.filter((m) => !m.own);
  const width = Math.max(...OPERATOR_NAMES.map((o) => o.length));
  for (const op of result.operators) {
    const of = generated.filter((m) => m.operator === op);
    const scored = of.filter((m) => !m.equivalent);
    io.out(
      `  ${op.padEnd(width)}  ${scored.filter((m) => m.killedBy).length}/${scored.length} killed${of.length > scored.length ? `, ${of.length - scored.length} equivalent` : ""}\n`,
    );
  }
  const survivors = generated.filter((m) => m.survived && !m.equivalent);
  if (survivors.length > 0) io.out(`survived (no gate saw the change):\n`);
  for (const m of survivors) io.out(`  ${m.id}  ${m.description}\n`);
  for (const m of result.mutants.filter((x) => x.own))
    io.out(
      `your mutant ${m.id}: ${m.killedBy ? `killed by ${m.killedBy.gate}${m.killedBy.scenario ? ` in ${m.killedBy.scenario}` : ""}` : "survived"}  ${m.description}\n`,
    );
  io.out(
    `${why === null ? `this record certifies the behaviour gates of runs on ${result.connector} with model ${result.model}, these prompts, scenarios, k ${result.k}, seed ${result.seed} and code ${result.codeVersion}` : `behaviour gates on ${result.connector} stay "not measured": ${why}`}; kept in ${file}\n`,
  );
  if (values.json)
    io.out(
      `${JSON.stringify({
        connector: result.connector,
        connectorKind: result.connectorKind,
        model: result.model,
        lockHash: result.lockHash,
        scenariosHash: result.scenariosHash,
        k: result.k,
        seed: result.seed,
        codeVersion: result.codeVersion,
        source: result.source,
        measured: result.measured,
        note: result.note,
        mutants: result.mutants.map((m) => ({
          id: m.id,
          operator: m.operator,
          diff: m.diff,
          ...(m.killedBy ? { killedBy: m.killedBy } : { survived: true }),
          ...(m.equivalent ? { equivalent: m.equivalent } : {}),
          scenarios: m.scenarios,
          ...(m.own ? { own: true } : {}),
        })),
        killed: result.killed,
        total: result.total,
        equivalent: result.equivalent,
        score: result.score,
        operators: result.operators,
        control: result.control,
        // The earlier shape (SPEC §5), kept for its readers: detected = killed.
        mutations: result.mutants.map((m) => ({
          id: m.id,
          detected: Boolean(m.killedBy),
          gate: m.killedBy?.gate ?? null,
        })),
        detected: result.killed,
        certifies: why === null,
        ...(why !== null ? { why } : {}),
        file,
      })}\n`,
    );
  return 0;
}

async function operatingCommand(values: Values, io: CliIO): Promise<number> {
  allowOnly("operating", values, [
    "scenarios",
    "seed",
    "connector",
    "base-url",
    "model",
    "max-model-calls",
    "max-tool-calls",
    "max-sample-tokens",
    "max-sample-usd",
    "max-cost-usd",
  ]);
  const dirs = values.scenarios ?? [];
  if (dirs.length > 1) throw new UsageError("eval operating: give --scenarios once (one directory)");
  if (values.seed !== undefined && !/^\d{1,15}$/.test(values.seed))
    throw new UsageError("eval operating: --seed must be a whole number");
  const live = values.connector !== undefined && values.connector !== "offline";
  const capFlag = [
    "max-model-calls",
    "max-tool-calls",
    "max-sample-tokens",
    "max-sample-usd",
    "max-cost-usd",
  ].find((k) => values[k as keyof Values] !== undefined);
  if (capFlag && !live)
    throw new UsageError(
      `eval operating: --${capFlag} applies only with --connector (a connector other than offline)`,
    );
  const say = values.json ? io.err : io.out;
  const report = await runOperatingEval({
    ...(dirs[0] !== undefined ? { dir: dirs[0] } : {}),
    seed: values.seed !== undefined ? Number(values.seed) : 1,
    ...(values.connector !== undefined ? { connector: values.connector } : {}),
    ...(values["base-url"] !== undefined ? { baseUrl: values["base-url"] } : {}),
    ...(values.model !== undefined ? { model: values.model } : {}),
    env: io.env,
    caps: capsOf(values),
    ...(values["max-cost-usd"] !== undefined
      ? { maxCostUsd: usdAmount("max-cost-usd", values["max-cost-usd"]) as number }
      : {}),
    onNotice: (text) => io.err(`${text}\n`),
  });
  const on = report.connector === "offline" ? "offline" : `on ${report.connector}`;
  say(
    `operating phase — ${report.source} model (${on}): rules measured; behaviour ${report.notMeasured === null ? "measured" : `not measured: ${report.notMeasured}`}\n`,
  );
  for (const sc of report.scenarios) {
    say(
      `\n${sc.passed ? "PASS" : "FAIL"}  ${sc.id} — ${sc.title} (${sc.runs} runs, ${sc.modelCalls} model calls${report.caps ? `, cost ${usdText(sc.costUsd)}` : ""})\n`,
    );
    for (const c of sc.checks)
      say(
        `  ${c.measured ? (c.pass ? "pass" : "FAIL") : "n/m "}  ${c.id.padEnd(26)} ${c.kind.padEnd(9)} ${c.evidence}\n`,
      );
  }
  for (const s of report.skipped) say(`\nskipped ${s.id}: ${s.reason}\n`);
  if (values.json) io.out(`${JSON.stringify(report)}\n`);
  return report.passed ? 0 : 1;
}

export async function evalCommand(args: string[], io: CliIO): Promise<number> {
  // capture takes a run id and store options of its own (eval-capture.ts).
  if (args[0] === "capture") return captureCommand(args.slice(1), io);
  const { values, positionals } = parse("eval", args, OPTIONS, 1);
  const sub = positionals[0];
  if (values.help) return (io.out(`${EVAL_HELP}\n`), 0);
  if (!sub) throw subcommandRequired("eval", ["scenarios", "record", "run", "compare"]);
  switch (sub) {
    case "scenarios":
      return scenariosCommand(values, io);
    case "record": {
      allowOnly("record", values, [...RUN_KEYS, "out"]);
      const out = need("record", "out", values.out);
      const { result, manifest } = await recordBaseline({ ...runOptions("record", values, io), out });
      const traces = [...result.traces.values()].flat();
      io.out(
        `recorded ${manifest.scenarios.length} scenarios × ${manifest.samples} samples (profile ${manifest.profile} on ${manifest.connector}, seed ${manifest.seed}) in ${out}\n`,
      );
      const replayed = traces.filter((t) => t.source === "replayed").length;
      io.out(
        `${traces.filter((t) => t.terminal === "done").length}/${traces.length} samples done, ${traces.reduce((n, t) => n + t.hires.length, 0)} hires${replayed ? `, ${replayed} replayed from cassettes` : ""}\n`,
      );
      const capped = traces.filter((t) => t.cap).length;
      const calls = traces.reduce((n, t) => n + t.usage.modelCalls, 0);
      const skipped = result.skipped ?? [];
      const rl = result.rateLimit;
      io.out(
        `${calls} model calls, cost ${usdText(result.cost?.usd)}${result.cost?.limitUsd != null ? ` of --max-cost-usd $${result.cost.limitUsd}${result.cost.trusted ? "" : " (not trusted: unknown prices)"}` : ""}${capped ? `, ${capped} sample(s) ended by a cap` : ""}${skipped.length ? `, ${skipped.length} sample(s) skipped: ${skipped[0]?.reason}` : ""}${rl ? `; ${rl.rateLimited} rate-limited (429) request(s), ${rl.retries} retried, concurrency ${rl.initialLimit} → lowest ${rl.lowestLimit}` : ""}\n`,
      );
      if (values.json)
        io.out(
          `${JSON.stringify({ out, profile: manifest.profile, connector: manifest.connector, samples: manifest.samples, seed: manifest.seed, scenarios: manifest.scenarios.map((s) => s.id), modelCalls: calls, costUsd: result.cost?.usd ?? null, costTrusted: result.cost?.trusted ?? true, capped, skipped: skipped.length, caps: result.caps, rateLimit: rl ?? null })}\n`,
        );
      return 0;
    }
    case "run": {
      allowOnly("run", values, [...RUN_KEYS, ...COMPARE_KEYS, "sensitivity", "cross-source"]);
      const baseline = need("run", "baseline", values.baseline);
      const settings = compareSettings(values);
      const k = settings.k ?? DEFAULT_COMPARE_SETTINGS.k;
      const samples = wholeNumber("samples", values.samples, 1) ?? 8;
      if (samples < k)
        io.err(
          `warning: pass^${k} needs ${k} samples; with --samples ${samples} no behaviour gate can pass and the run is incomplete\n`,
        );
      const evaluation = await evaluateCandidate({
        ...runOptions("run", values, io),
        ...(values.sensitivity !== undefined ? { sensitivityFile: values.sensitivity } : {}),
        baseline,
        out: values.out ?? DEFAULT_OUT,
        settings,
        ...(values["cross-source"] ? { crossSource: true } : {}),
      });
      return printEvaluation(io, evaluation, values.json);
    }
    case "operating":
      return operatingCommand(values, io);
    case "compare": {
      allowOnly("compare", values, [...COMPARE_KEYS, "candidate", "cross-source"]);
      const evaluation = await compareRecordings(
        need("compare", "baseline", values.baseline),
        need("compare", "candidate", values.candidate),
        values.out ?? DEFAULT_OUT,
        compareSettings(values),
        values["cross-source"] ?? false,
      );
      return printEvaluation(io, evaluation, values.json);
    }
    case "sensitivity":
      return sensitivityCommand(values, io);
    default:
      throw new UsageError(
        `eval: unknown subcommand "${sub}"; subcommands: scenarios, record, run, compare, sensitivity, operating, capture`,
      );
  }
}
