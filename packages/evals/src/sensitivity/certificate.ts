// A sensitivity record is a certificate bound to what it measured (OP-4): the
// connector (id and kind), the model that served it, the locked prompt texts, the scenario set, k,
// the seed and the code. A run uses it only when every one of them is the run's own; otherwise the
// report says which differs ("measured on standin, this run is on local") and behaviour stays not
// measured. Nothing here trusts a figure the record states that its mutant list does not bear out.
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { lockedTexts } from "@cadre/company";
import { sha256 } from "@cadre/core";
import { hashOf } from "../data/hash.js";
import { modelOfTraces } from "../compare/source.js";
import type { LoadedScenario } from "../scenario/types.js";
import type { Trace } from "../trace/types.js";

export interface CertificateFacts {
  /** The connector as runs name it (openai-compatible carries its model: "openai-compatible:llama3"). */
  connector: string;
  connectorKind: string;
  /** The model id the server answered as (the first call's served model), else the requested one. */
  model: string | null;
  /** SHA-256 over every locked text's id and hash: the prompts as the code has them now. */
  lockHash: string;
  /** SHA-256 over the scenarios' ids and definition hashes. */
  scenariosHash: string;
  k: number;
  seed: number;
  codeVersion: string;
}

export const CERTIFICATE_FIELDS = [
  "connector",
  "connectorKind",
  "model",
  "lockHash",
  "scenariosHash",
  "k",
  "seed",
  "codeVersion",
] as const satisfies ReadonlyArray<keyof CertificateFacts>;

export function lockHash(): string {
  return hashOf(
    lockedTexts()
      .map((t) => ({ id: t.id, sha256: sha256(t.text) }))
      .sort((a, b) => a.id.localeCompare(b.id)),
  );
}

export function scenariosHash(scenarios: readonly LoadedScenario[]): string {
  return hashOf(
    scenarios.map((s) => ({ id: s.scenario.id, hash: s.hash })).sort((a, b) => a.id.localeCompare(b.id)),
  );
}

/** The model that served a run: the first call's served model id, else the model the CEO was given. */
export function servedModelOf(traces: readonly Trace[]): string | null {
  for (const t of traces) for (const c of t.cost?.calls ?? []) if (c.servedModel) return c.servedModel;
  return modelOfTraces([[...traces]]);
}

// The code a run's behaviour rests on: the packages that build the prompt, offer and run the tools.
const CODE_PACKAGES = ["model", "core", "store", "company"] as const;
const PACKAGES_DIR = fileURLToPath(new URL("../../../", import.meta.url));

async function filesUnder(dir: string, keep: (f: string) => boolean): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath ?? (e as unknown as { path: string }).path, e.name))
    .filter(keep)
    .sort();
}

let cached: Promise<string> | undefined;

/**
 * The code version: the package version and a hash of the sources of the packages behaviour rests
 * on (their TypeScript where it is present, else the built JavaScript), so any code change — a tool
 * offered elsewhere, a handler, a validation — is another version.
 */
export function codeVersion(): Promise<string> {
  cached ??= (async () => {
    const pkg = JSON.parse(await readFile(join(PACKAGES_DIR, "evals", "package.json"), "utf8")) as {
      version: string;
    };
    const parts: Array<{ file: string; sha256: string }> = [];
    for (const name of CODE_PACKAGES) {
      const src = join(PACKAGES_DIR, name, "src");
      const [dir, keep] = existsSync(src)
        ? [src, (f: string) => f.endsWith(".ts") && !f.endsWith(".test.ts") && !f.includes("/testing/")]
        : [join(PACKAGES_DIR, name, "dist"), (f: string) => f.endsWith(".js")];
      if (!existsSync(dir)) continue;
      for (const file of await filesUnder(dir, keep))
        parts.push({ file: relative(PACKAGES_DIR, file), sha256: sha256(await readFile(file, "utf8")) });
    }
    return `${pkg.version}+${hashOf(parts).slice(0, 12)}`;
  })();
  return cached;
}

const short = (h: string) => h.slice(0, 12);

/** Each fact of the record that is not the run's, in words; empty when the record is the run's. */
export function certificateMismatches(record: CertificateFacts, run: CertificateFacts): string[] {
  const out: string[] = [];
  if (record.connector !== run.connector)
    out.push(`measured on ${record.connector}, this run is on ${run.connector}`);
  else if (record.connectorKind !== run.connectorKind)
    out.push(
      `measured on a connector of kind ${record.connectorKind}, this run's is of kind ${run.connectorKind}`,
    );
  if (record.model !== run.model)
    out.push(`measured with model ${record.model ?? "unknown"}, this run's is ${run.model ?? "unknown"}`);
  if (record.lockHash !== run.lockHash)
    out.push(
      `measured with prompts ${short(record.lockHash)}, this run's are ${short(run.lockHash)} (the locked texts changed)`,
    );
  if (record.scenariosHash !== run.scenariosHash)
    out.push(
      `measured on scenario set ${short(record.scenariosHash)}, this run's is ${short(run.scenariosHash)} (a scenario was added, removed or edited, or --only narrowed the run)`,
    );
  if (record.k !== run.k) out.push(`measured at pass^${record.k}, this run uses pass^${run.k}`);
  if (record.seed !== run.seed) out.push(`measured with seed ${record.seed}, this run's seed is ${run.seed}`);
  if (record.codeVersion !== run.codeVersion)
    out.push(`measured on code ${record.codeVersion}, this run's is ${run.codeVersion}`);
  return out;
}

/** The facts of a run, as a certificate must name them to be used for it. */
export async function runFacts(
  run: {
    connector: string;
    seed: number;
    scenarios: readonly LoadedScenario[];
    traces: Map<string, Trace[]>;
  },
  k: number,
): Promise<CertificateFacts> {
  return {
    connector: run.connector,
    connectorKind: run.connector.split(":")[0] as string,
    model: servedModelOf([...run.traces.values()].flat()),
    lockHash: lockHash(),
    scenariosHash: scenariosHash(run.scenarios),
    k,
    seed: run.seed,
    codeVersion: await codeVersion(),
  };
}
