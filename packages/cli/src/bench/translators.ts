// Translator throughput per vendor format, as ratios against bare JSON.parse of the same data lines
// and against the vendor SDK's own accumulator, measured in one run (issue 5; MC-4).
import { benchTranslators } from "@cadre/core/bench";
import type { Benchmark } from "./registry.js";

export const translatorsBench: Benchmark = {
  name: "translators",
  description: "translator MB/s and events/s per format; time ÷ JSON.parse and ÷ the vendor SDK accumulator",
  async run() {
    const results = await benchTranslators();
    return {
      figures: results.flatMap((r) => [
        { label: `${r.format}: throughput`, value: r.mbPerSec, unit: "MB/s" },
        { label: `${r.format}: events`, value: r.eventsPerSec, unit: "events/s" },
        { label: `${r.format}: time ÷ JSON.parse`, value: r.ratioVsJsonParse, unit: "×" },
        ...(r.ratioVsSdk !== undefined
          ? [{ label: `${r.format}: time ÷ SDK accumulator`, value: r.ratioVsSdk, unit: "×" }]
          : []),
      ]),
      targets: results.flatMap((r) => [
        { description: `${r.format} within 2× of bare JSON.parse`, pass: r.ratioVsJsonParse <= 2 },
        ...(r.ratioVsSdk !== undefined
          ? [{ description: `${r.format} at least as fast as the SDK accumulator`, pass: r.ratioVsSdk <= 1 }]
          : []),
      ]),
    };
  },
};
