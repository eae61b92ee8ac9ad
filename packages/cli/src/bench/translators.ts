// Translator throughput per vendor format, as ratios against bare JSON.parse of the same data lines
// and against the vendor SDK's own accumulator, measured in one run (MC-4).
import { benchTranslators } from "@cadre/core/bench";
import { atLeast, type Benchmark, figure } from "./registry.js";

export const translatorsBench: Benchmark = {
  name: "translators",
  description: "translator MB/s and events/s per format; time ÷ JSON.parse and ÷ the vendor SDK accumulator",
  async run() {
    const results = await benchTranslators();
    // ratioVsJsonParse / ratioVsSdk are time ratios: the baseline's throughput is ours × the ratio.
    return {
      figures: results.flatMap((r) => [
        figure(
          `${r.format}: translator`,
          r.mbPerSec,
          "MB/s",
          "bare JSON.parse of the same lines",
          r.mbPerSec * r.ratioVsJsonParse,
          ({ ratio }) => ({ description: "within 2× of bare JSON.parse", met: ratio >= 0.5 }),
        ),
        ...(r.ratioVsSdk !== undefined
          ? [
              figure(
                `${r.format}: translator vs SDK`,
                r.mbPerSec,
                "MB/s",
                "the vendor SDK's accumulator",
                r.mbPerSec * r.ratioVsSdk,
                atLeast(1),
              ),
            ]
          : []),
      ]),
    };
  },
};
