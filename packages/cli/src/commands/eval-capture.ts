// `cadre eval capture RUN_ID --out FILE [--label L] [--note TEXT]`: a recorded CEO run becomes a
// scenario file (the state it started from, its trigger, its behaviour to avoid or to hold). The
// file is validated and seeded once before it is written; nothing is written on a refusal.
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { basename, dirname, resolve } from "node:path";
import {
  captureRun,
  checkScenario,
  FAULT_LABELS,
  type FaultLabel,
  hashOf,
  parseScenario,
} from "@cadre/evals";
import { DATABASE_HELP, parse, STORE_OPTIONS } from "../args.js";
import { openData } from "../context.js";
import { type CliIO, UsageError } from "../io.js";

export const CAPTURE_HELP = `  cadre eval capture RUN_ID --out FILE [--label ${FAULT_LABELS.join("|")}] [--note TEXT]
                     [--data DIR] [--database URL] [--json]
      turn a recorded CEO run into a scenario: the company state the run started from (rebuilt
      from the store and seeded once to check it), the trigger that woke the CEO, and the behaviour
      it showed (its tool calls, hires, filings, the mode it ended in). With --label (the fault
      types of τ-bench) that behaviour is to avoid: a candidate sample that repeats it fails the
      scenario; without, it is to hold. FILE's name is the scenario's id (e.g.
      evals/scenarios/hired-while-waiting.json); \`eval run\` includes it when FILE is in a
      --scenarios directory (the built-in one by default), \`eval scenarios\` lists it with its label`;

const OPTIONS = {
  ...STORE_OPTIONS,
  out: { type: "string" },
  label: { type: "string" },
  note: { type: "string" },
} as const;

export async function captureCommand(args: string[], io: CliIO): Promise<number> {
  const { values, positionals } = parse("eval capture", args, OPTIONS, 1);
  if (values.help) return (io.out(`Usage:\n${CAPTURE_HELP}\n${DATABASE_HELP}\n`), 0);
  const runId = positionals[0];
  if (!runId)
    throw new UsageError(
      "eval capture: give the id of a recorded run (cadre demo and cadre wake print it): cadre eval capture RUN_ID --out FILE",
    );
  if (values.out === undefined)
    throw new UsageError("eval capture: --out FILE is required (e.g. evals/scenarios/my-bad-run.json)");
  const out = resolve(values.out);
  const id = basename(out).replace(/\.json$/, "");
  if (!out.endsWith(".json") || !/^[a-z0-9][a-z0-9-]{0,63}$/.test(id))
    throw new UsageError(
      `eval capture: --out must be a .json file whose name is the scenario's id: lowercase letters, digits and -, starting with a letter or digit (got "${values.out}")`,
    );
  if (values.label !== undefined && !(FAULT_LABELS as readonly string[]).includes(values.label))
    throw new UsageError(
      `eval capture: --label must be one of ${FAULT_LABELS.join(", ")} (got "${values.label}")`,
    );
  if (values.note !== undefined && values.note.length > 2000)
    throw new UsageError(`eval capture: --note is at most 2000 characters (got ${values.note.length})`);
  if (existsSync(out))
    throw new UsageError(`eval capture: ${values.out} exists already; choose another --out or remove it`);

  const { store } = await openData(values, io.env, "read");
  let captured;
  try {
    captured = await captureRun(store, runId, {
      id,
      env: io.env,
      ...(values.label !== undefined ? { label: values.label as FaultLabel } : {}),
      ...(values.note !== undefined ? { note: values.note } : {}),
    });
  } finally {
    await store.close();
  }
  // Read back through the scenario parser and seeded once, as `eval run` will: a file that would
  // not load is never written.
  const scenario = parseScenario(JSON.parse(JSON.stringify(captured.file)), out);
  await checkScenario({ scenario, file: out, hash: hashOf(scenario) });
  await mkdir(dirname(out), { recursive: true });
  await writeFile(out, `${JSON.stringify(captured.file, null, 2)}\n`, { flag: "wx" });
  for (const n of captured.notices) io.err(`note: ${n}\n`);
  const b = captured.file.captured?.behaviour;
  io.out(
    `captured run ${runId} as scenario ${id} (${scenario.expectMode}, woken by ${scenario.trigger}; ${values.label ? `${values.label}: to avoid` : "to hold"}) in ${values.out}\n`,
  );
  io.out(
    `behaviour: ${b?.toolCalls.length ?? 0} tool call(s), ${b?.hires.length ?? 0} hire(s), ${b?.approvalsFiled.length ?? 0} filing(s), ended ${b?.terminal} in ${b?.modeAfter}\n`,
  );
  if (values.json)
    io.out(
      `${JSON.stringify({ id, file: out, run: runId, label: values.label ?? null, expect: captured.file.captured?.expect, mode: scenario.expectMode, trigger: scenario.trigger, behaviour: b, notices: captured.notices })}\n`,
    );
  return 0;
}
