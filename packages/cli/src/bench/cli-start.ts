// CLI cold start (issue 19): `cadre company show` on a data directory with one company, a fresh
// process each time, against `node -e 0` (the runtime's own start). Alternating runs, medians.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { createCompany } from "@cadre/company";
import { openStore } from "@cadre/store";
import { type Benchmark, figure, overBy } from "./registry.js";

const run = promisify(execFile);
const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const ROUNDS = 11;

async function timed(args: string[]): Promise<number> {
  const start = performance.now();
  await run(process.execPath, args, { env: { ...process.env, NO_COLOR: "1" } });
  return performance.now() - start;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export const cliStartBench: Benchmark = {
  name: "cli-start",
  description: "CLI cold start: `cadre company show` in a fresh process vs `node -e 0`",
  async run() {
    const dir = await mkdtemp(join(tmpdir(), "cadre-bench-cli-"));
    try {
      const store = await openStore({ path: join(dir, "cadre.db") });
      const company = await createCompany(store, { name: "Cold Start", goal: "Measure the CLI." });
      await store.close();
      const show = [BIN, "company", "show", "--company", company.id, "--data", dir];
      const cadre: number[] = [];
      const bare: number[] = [];
      await timed(show); // the OS file cache warm, as for any second run
      for (let i = 0; i < ROUNDS; i++) {
        cadre.push(await timed(show));
        bare.push(await timed(["-e", "0"]));
      }
      return {
        figures: [figure("cadre company show", median(cadre), "ms", "node -e 0", median(bare), overBy(250))],
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
