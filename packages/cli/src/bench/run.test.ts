// `npm run bench`'s output contract, not its speed (never asserted: CI machines are loaded): the
// --json line's shape, every figure beside a baseline, --help and a refused benchmark name.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { figure, overBy, pairedFigure } from "./registry.js";
import { paired } from "./stats.js";

const run = promisify(execFile);
const RUNNER = fileURLToPath(new URL("../../dist/bench/run.js", import.meta.url));

describe("npm run bench", () => {
  it("--json ends with one JSON line of figures, each with its baseline and ratio", async () => {
    const { stdout } = await run(process.execPath, [RUNNER, "--only", "prompt-assembly", "--json"], {
      timeout: 240_000,
    });
    // The table goes to stderr with --json: stdout is the JSON line alone.
    const lines = stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0]!) as { figures: Array<Record<string, unknown>> };
    expect(Object.keys(parsed)).toEqual(["figures"]);
    expect(parsed.figures.length).toBeGreaterThan(0);
    for (const f of parsed.figures) {
      expect(f).toMatchObject({
        name: expect.any(String),
        value: expect.any(Number),
        unit: expect.any(String),
        baseline: expect.any(Number),
        ratio: expect.any(Number),
        bench: "prompt-assembly",
        baselineName: expect.any(String),
        n: expect.any(Number),
      });
      const [low, high] = f["range"] as [number, number];
      expect(f["n"]).toBeGreaterThanOrEqual(1);
      expect(low).toBeLessThanOrEqual(high);
      expect(f["baseline"]).toBeGreaterThan(0);
      expect(f["ratio"]).toBeCloseTo((f["value"] as number) / (f["baseline"] as number), 9);
    }
  }, 300_000);

  it("--help names every benchmark and the JSON shape; an unknown name is refused with the known ones", async () => {
    const help = await run(process.execPath, [RUNNER, "--help"]);
    for (const name of ["server", "wake-start", "cli-start", "workers", "event-queue"])
      expect(help.stdout).toContain(name);
    expect(help.stdout).toContain('"baseline"');
    const refused = await run(process.execPath, [RUNNER, "--only", "nope"]).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 2 });
    expect((refused as { stderr: string }).stderr).toMatch(
      /unknown benchmark\(s\) nope; registered: .*server/,
    );
  });

  it("a figure's ratio is value ÷ baseline, and an allowance target compares the difference", () => {
    const f = figure("wake", 12, "ms", "bare loop", 4, overBy(5));
    expect(f).toMatchObject({ ratio: 3, target: { met: false } });
    expect(figure("wake", 8, "ms", "bare loop", 4, overBy(5)).target!.met).toBe(true);
    expect(figure("x", 1, "ms", "none", 0).ratio).toBe(0);
    // A single measurement is one round whose ratio range is the ratio itself.
    expect(f).toMatchObject({ range: [3, 3], n: 1 });
  });

  it("paired rounds report medians of each side and the range of the per-round ratios", () => {
    const p = paired([
      { value: 10, baseline: 20 },
      { value: 30, baseline: 20 },
      { value: 12, baseline: 40 },
    ]);
    expect(p).toEqual({ value: 12, baseline: 20, range: [0.3, 1.5], n: 3 });
    expect(pairedFigure("x", "req/s", "bare", p)).toMatchObject({ ratio: 0.6, range: [0.3, 1.5], n: 3 });
  });
});
