// `npm run bench`: runs the registered benchmarks (registry.ts) in this process and prints their
// figures; speed is measured here only, never asserted in tests. Options: --only NAME[,NAME],
// --json (one JSON line at the end: { benchmarks: [{ name, figures, targets }] }).
import { parseArgs } from "node:util";
import { type BenchResult, BENCHMARKS } from "./registry.js";

function format(value: number): string {
  if (value >= 1000) return Math.round(value).toLocaleString("en-US");
  return value >= 10 ? value.toFixed(1) : value.toFixed(3);
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: { only: { type: "string" }, json: { type: "boolean" } },
    strict: true,
  });
  const only = values.only?.split(",").map((s) => s.trim());
  const unknown = only?.filter((name) => !BENCHMARKS.some((b) => b.name === name)) ?? [];
  if (unknown.length > 0) {
    process.stderr.write(
      `bench: unknown benchmark(s) ${unknown.join(", ")}; registered: ${BENCHMARKS.map((b) => b.name).join(", ")}\n`,
    );
    return 2;
  }
  const results: Array<{ name: string } & BenchResult> = [];
  process.stdout.write(`cadre bench — node ${process.version}, ${process.platform}/${process.arch}\n`);
  for (const bench of BENCHMARKS.filter((b) => !only || only.includes(b.name))) {
    process.stdout.write(`\n${bench.name} — ${bench.description}\n`);
    const result = await bench.run();
    for (const f of result.figures)
      process.stdout.write(`  ${f.label.padEnd(48)} ${format(f.value).padStart(14)} ${f.unit}\n`);
    for (const t of result.targets ?? [])
      process.stdout.write(`  target ${t.pass ? "✓" : "✗"} ${t.description}\n`);
    results.push({ name: bench.name, ...result });
  }
  if (values.json) process.stdout.write(`${JSON.stringify({ benchmarks: results })}\n`);
  return 0;
}

process.exitCode = await main();
