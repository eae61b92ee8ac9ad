// `cadre cache-report`: measures prompt-cache stability on a scripted multi-turn session (MC-3,
// MC-7). Per model call: the hash of every stable segment as sent, the first byte where the request
// differs from the previous one, the cache hit rate; then the session's rate against the most this
// request sequence could reach with a byte-stable prefix.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { COMMON_OPTIONS, parse } from "../args.js";
import { runCacheScenario, type CacheScenarioResult, type CacheTurn } from "../cache-report/scenario.js";
import { type CliIO, UsageError } from "../io.js";

export const CACHE_REPORT_HELP = `Usage: cadre cache-report [--turns N] [--json]

Runs one CEO session on the offline connector for N model calls (default 30, at least 2): real
prompt assembly, real company tools (hires accepted and refused, a strategy filed), a rewind of one
exchange and a MEMORY.md edited on disk mid-session. Prints per call the hash of each stable
segment, the first byte where the request differs from the previous one and the cache hit rate,
then the session hit rate against the theoretical maximum (the same requests with a byte-stable
prefix). Exit 1 when a stable segment changed or the session rate is below 97% of the maximum.

  --json   stdout holds one JSON line (the table goes to stderr): { turns: [{ turn, segmentHashes,
           firstDifferingByte, hitRate }], sessionHitRate, theoreticalMaxHitRate }`;

/** The issue's target: the session reaches at least this share of its theoretical maximum. */
export const TARGET_SHARE_OF_MAX = 0.97;

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function diffLabel(turn: CacheTurn, previousBytes: number | undefined): string {
  if (turn.firstDifferingByte === null) return "—";
  return `${turn.firstDifferingByte} ${turn.firstDifferingByte === previousBytes ? "(appended)" : "(inside history)"}`;
}

function printReport(io: CliIO, r: CacheScenarioResult): void {
  const first = r.turns[0];
  io.out(
    `cadre cache-report — ${r.turns.length} model calls, offline connector (prefix-cache simulation), real prompt assembly\n`,
  );
  if (first)
    io.out(
      `stable prefix (call 1): ${Object.entries(first.segmentHashes)
        .map(([id, h]) => `${id} ${h}`)
        .join(", ")}\n\n`,
    );
  io.out(`call  segments         first differing byte       hit rate   notes\n`);
  r.turns.forEach((t, i) => {
    const same = first && JSON.stringify(t.segmentHashes) === JSON.stringify(first.segmentHashes);
    io.out(
      `${String(t.turn).padStart(4)}  ${(same ? "= call 1" : "CHANGED").padEnd(15)}  ${diffLabel(t, r.turns[i - 1]?.requestBytes).padEnd(25)}  ${pct(t.hitRate).padStart(7)}   ${t.notes.join("; ")}\n`,
    );
  });
  const share = r.theoreticalMaxHitRate === 0 ? 1 : r.sessionHitRate / r.theoreticalMaxHitRate;
  io.out(
    `\nsession hit rate ${pct(r.sessionHitRate)} — theoretical max ${pct(r.theoreticalMaxHitRate)} — ${pct(share)} of max (target ≥ ${pct(TARGET_SHARE_OF_MAX)}) ${share >= TARGET_SHARE_OF_MAX ? "✓" : "✗"}\n`,
  );
  io.out(`every stable segment identical on every call: ${r.stableSegmentsIdentical ? "yes ✓" : "NO ✗"}\n`);
}

export async function cacheReportCommand(args: string[], io: CliIO): Promise<number> {
  const { values } = parse("cache-report", args, {
    json: COMMON_OPTIONS.json,
    help: COMMON_OPTIONS.help,
    turns: { type: "string" },
  });
  if (values.help) return (io.out(`${CACHE_REPORT_HELP}\n`), 0);
  const turns = values.turns === undefined ? 30 : Number(values.turns);
  if (!Number.isInteger(turns) || turns < 2 || turns > 500)
    throw new UsageError(
      `cache-report: --turns must be a whole number from 2 to 500 (got "${values.turns}")`,
    );
  const workDir = await mkdtemp(join(tmpdir(), "cadre-cache-report-"));
  try {
    const report = await runCacheScenario({ turns, workDir });
    printReport(io, report);
    if (values.json) {
      const summary = {
        turns: report.turns.map((t) => ({
          turn: t.turn,
          segmentHashes: t.segmentHashes,
          firstDifferingByte: t.firstDifferingByte,
          hitRate: t.hitRate,
        })),
        sessionHitRate: report.sessionHitRate,
        theoreticalMaxHitRate: report.theoreticalMaxHitRate,
      };
      io.out(`${JSON.stringify(summary)}\n`);
    }
    const share =
      report.theoreticalMaxHitRate === 0 ? 1 : report.sessionHitRate / report.theoreticalMaxHitRate;
    return report.stableSegmentsIdentical && share >= TARGET_SHARE_OF_MAX ? 0 : 1;
  } finally {
    await rm(workDir, { recursive: true, force: true });
  }
}
