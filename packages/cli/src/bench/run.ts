// `npm run bench`: runs the registered benchmarks (registry.ts) in this process and prints each
// figure beside its bare baseline, measured in the same run; speed is measured here only, never
// asserted in tests. See --help.
import { parseArgs } from "node:util";
import { type BenchFigure, BENCHMARKS } from "./registry.js";

const HELP = `Usage: npm run bench [-- --only NAME[,NAME]] [-- --json]

Runs Cadre's benchmarks in this process, one run: every figure is printed beside its bare baseline
(the same work without Cadre, measured in the same run), with the ratio and the target, if any.

Options:
  --only NAME[,NAME]  run these benchmarks only
  --json              end with one JSON line:
                      { "figures": [{ "name", "value", "unit", "baseline", "ratio",
                                      "bench", "baselineName", "target", "met",
                                      and for repeated rounds "range", "baselineRange", "n" }] }
                      (progress goes to stderr, so stdout's last line is the JSON)
  --list              list the benchmarks and exit
  -h, --help          this help

Benchmarks:
${BENCHMARKS.map((b) => `  ${b.name.padEnd(16)} ${b.description}`).join("\n")}

Environment: CADRE_BENCH_DATABASE_URL names a PostgreSQL database for the workers benchmark
(scratch schemas are made and dropped there); without it a throwaway local server is started.
`;

function format(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Math.abs(value) >= 1000) return Math.round(value).toLocaleString("en-US");
  return Math.abs(value) >= 10 ? value.toFixed(1) : value.toFixed(3);
}

function line(f: BenchFigure): string {
  const target = f.target ? `  target ${f.target.description}: ${f.target.met ? "met ✓" : "missed ✗"}` : "";
  const spread = f.range ? ` [${format(f.range[0])}–${format(f.range[1])}, n=${f.n ?? "?"}]` : "";
  return `  ${f.name.padEnd(44)} ${format(f.value).padStart(10)} ${f.unit.padEnd(9)}${spread} vs ${format(f.baseline).padStart(10)} ${f.baselineName} → ${format(f.ratio)}×${target}\n`;
}

async function main(): Promise<number> {
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        only: { type: "string" },
        json: { type: "boolean" },
        list: { type: "boolean" },
        help: { type: "boolean", short: "h" },
      },
      strict: true,
    }));
  } catch (error) {
    process.stderr.write(`bench: ${(error as Error).message}\n\n${HELP}`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(HELP);
    return 0;
  }
  if (values.list) {
    for (const b of BENCHMARKS) process.stdout.write(`${b.name}\n`);
    return 0;
  }
  const only = values.only?.split(",").map((s) => s.trim());
  const unknown = only?.filter((name) => !BENCHMARKS.some((b) => b.name === name)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(
      `bench: unknown benchmark(s) ${unknown.join(", ")}; registered: ${BENCHMARKS.map((b) => b.name).join(", ")}\n`,
    );
    return 2;
  }
  // With --json, stdout carries the JSON line only; the table goes to stderr.
  const out = values.json ? process.stderr : process.stdout;
  const all: Array<BenchFigure & { bench: string }> = [];
  out.write(`cadre bench — node ${process.version}, ${process.platform}/${process.arch}\n`);
  for (const bench of BENCHMARKS.filter((b) => !only || only.includes(b.name))) {
    out.write(`\n${bench.name} — ${bench.description}\n`);
    const result = await bench.run();
    if (result.notMeasured) out.write(`  not measured: ${result.notMeasured}\n`);
    for (const f of result.figures) {
      out.write(line(f));
      all.push({ bench: bench.name, ...f });
    }
  }
  if (values.json) {
    const figures = all.map((f) => ({
      name: f.name,
      value: f.value,
      unit: f.unit,
      baseline: f.baseline,
      ratio: f.ratio,
      bench: f.bench,
      baselineName: f.baselineName,
      target: f.target?.description ?? null,
      met: f.target ? f.target.met : null,
      ...(f.range ? { range: f.range } : {}),
      ...(f.baselineRange ? { baselineRange: f.baselineRange } : {}),
      ...(f.n !== undefined ? { n: f.n } : {}),
    }));
    process.stdout.write(`${JSON.stringify({ figures })}\n`);
  }
  return 0;
}

process.exitCode = await main();
