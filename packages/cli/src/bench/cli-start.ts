// CLI start: `cadre --version`, `cadre company show` and `cadre agents list` on an existing data
// directory, each a fresh process, against `node -e 0` (the runtime's own start). CPU time (user +
// system, as the process itself counts it at exit), not wall time: on a shared machine wall time
// measures the other processes. Paired rounds, interleaved, so noise hits every command alike;
// the figure is the median round, with the range of all rounds.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createCompany } from "@cadre/company";
import { openStore } from "@cadre/store";
import { atMost, type Benchmark, pairedFigure } from "./registry.js";
import { paired } from "./stats.js";

const BIN = fileURLToPath(new URL("../../bin/cadre.js", import.meta.url));
const ROUNDS = 15;
const TARGET = 2;

/** Preloaded into every measured process (the baseline too): writes its CPU time to fd 3 as it exits. */
const CPU_AT_EXIT = `process.on("exit", () => {
  const { user, system } = process.cpuUsage();
  require("node:fs").writeSync(3, String((user + system) / 1000));
});
`;

/** One fresh process: its CPU milliseconds, or an error naming the command if it failed. */
function cpuMs(preload: string, args: string[]): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["-r", preload, ...args], {
      stdio: ["ignore", "ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1" },
    });
    let report = "";
    let stderr = "";
    child.stdio[3]!.on("data", (chunk: Buffer) => (report += chunk.toString()));
    child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      const ms = Number(report);
      if (code === 0 && report !== "" && Number.isFinite(ms)) resolve(ms);
      else reject(new Error(`node ${args.join(" ")} exited ${code}: ${stderr.trim() || "no CPU report"}`));
    });
  });
}

export const cliStartBench: Benchmark = {
  name: "cli-start",
  description: "CLI start, CPU time: `cadre --version`, `company show`, `agents list` vs `node -e 0`",
  async run() {
    const dir = await mkdtemp(join(tmpdir(), "cadre-bench-cli-"));
    try {
      const store = await openStore({ path: join(dir, "cadre.db") });
      await createCompany(store, { name: "Cold Start", goal: "Measure the CLI." });
      await store.close();
      const preload = join(dir, "cpu-at-exit.cjs");
      await writeFile(preload, CPU_AT_EXIT);
      const commands: Record<string, string[]> = {
        "cadre --version": [BIN, "--version"],
        "cadre company show": [BIN, "company", "show", "--data", dir],
        "cadre agents list": [BIN, "agents", "list", "--data", dir],
      };
      const bare = ["-e", "0"];
      const names = Object.keys(commands);
      // One unmeasured run each: the OS file cache warm, as for anyone's second command.
      for (const args of [bare, ...Object.values(commands)]) await cpuMs(preload, args);
      const samples = new Map<string, number[]>(names.map((n) => [n, []]));
      const baseline: number[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        // The order rotates, so no command always runs right after another one.
        const order = [...names.slice(round % names.length), ...names.slice(0, round % names.length)];
        baseline.push(await cpuMs(preload, bare));
        for (const name of order) samples.get(name)!.push(await cpuMs(preload, commands[name]!));
      }
      return {
        figures: names.map((name) => {
          // Each round's command beside the `node -e 0` measured in the same round.
          const rounds = samples.get(name)!.map((value, i) => ({ value, baseline: baseline[i]! }));
          return pairedFigure(`${name} CPU`, "ms", "node -e 0", paired(rounds), atMost(TARGET));
        }),
      };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  },
};
