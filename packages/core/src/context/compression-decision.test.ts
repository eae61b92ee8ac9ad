import { describe, expect, it } from "vitest";
import {
  decideCompression,
  type CompressionDecision,
  type CompressionSnapshot,
} from "./compression-decision.js";

const base: CompressionSnapshot = {
  harness: "codex",
  remote: false,
  trigger: "next-send",
  byteBudget: { limit: 1_000, used: 500 },
  occupancy: 0.5,
  terminalOverflow: false,
  deterministicCompactFailure: false,
  strippableImages: [],
};

const snap = (patch: Partial<CompressionSnapshot>): CompressionSnapshot => ({ ...base, ...patch });
const images = (...sizes: number[]) => sizes.map((bytes, i) => ({ id: `img${i}`, bytes }));

type Row = [name: string, snapshot: CompressionSnapshot, action: CompressionDecision["action"]];

const rows: Row[] = [
  ["MC-12 fits: do nothing", base, "none"],
  [
    "MC-12 fits with no byte budget measured",
    snap({ byteBudget: undefined, harness: "claude-code" }),
    "none",
  ],
  [
    "MC-12 byte budget broken by strippable oversized images: strip",
    snap({ byteBudget: { limit: 1_000, used: 1_800 }, strippableImages: images(900, 100) }),
    "strip-images",
  ],
  [
    "MC-12 byte budget broken and stripping would not get under it: handoff rebuild",
    snap({ byteBudget: { limit: 1_000, used: 3_000 }, strippableImages: images(1_600) }),
    "handoff-rebuild",
  ],
  [
    "MC-12 mixed large tail with strippable images under half is not rescued",
    snap({ byteBudget: { limit: 1_000, used: 3_000 }, strippableImages: images(1_400) }),
    "fail-closed",
  ],
  [
    "MC-12 tool outputs have no tier of their own (byte breach with no images)",
    snap({ byteBudget: { limit: 1_000, used: 5_000 } }),
    "fail-closed",
  ],
  [
    "MC-12 token budget broken by terminal overflow: handoff rebuild",
    snap({ trigger: "terminal-error", terminalOverflow: true }),
    "handoff-rebuild",
  ],
  [
    "MC-12 token budget broken by occupancy ≥ 100%: handoff rebuild",
    snap({ occupancy: 1 }),
    "handoff-rebuild",
  ],
  [
    "MC-12 token budget broken by a deterministic official compact failure: handoff rebuild",
    snap({ deterministicCompactFailure: true }),
    "handoff-rebuild",
  ],
  [
    "MC-12 token breach outranks a byte breach (rebuild drops the images too)",
    snap({ occupancy: 1.2, byteBudget: { limit: 1_000, used: 1_800 }, strippableImages: images(900) }),
    "handoff-rebuild",
  ],
  [
    "MC-12 a plain large history (99% occupancy) does not break the token budget",
    snap({ occupancy: 0.99 }),
    "none",
  ],
  [
    "MC-12 opening a session never triggers compression (even when broken)",
    snap({ trigger: "open", occupancy: 1.5, terminalOverflow: true }),
    "none",
  ],
  [
    "MC-12 opening a session never strips images",
    snap({ trigger: "open", byteBudget: { limit: 1_000, used: 1_800 }, strippableImages: images(900) }),
    "none",
  ],
  [
    "MC-12 a terminal error can trigger it",
    snap({
      trigger: "terminal-error",
      byteBudget: { limit: 1_000, used: 1_800 },
      strippableImages: images(900),
    }),
    "strip-images",
  ],
  ["MC-12 remote sessions get no local rescue", snap({ remote: true, occupancy: 1 }), "fail-closed"],
  ["MC-12 remote sessions that fit are left alone", snap({ remote: true }), "none"],
  [
    "MC-12 a byte figure where bytes cannot be measured is uncertain",
    snap({
      harness: "claude-code",
      byteBudget: { limit: 1_000, used: 1_800 },
      strippableImages: images(900),
    }),
    "fail-closed",
  ],
  [
    "MC-12 the Pi session measures the bytes it sends: strip",
    snap({ harness: "pi", byteBudget: { limit: 1_000, used: 1_800 }, strippableImages: images(900) }),
    "strip-images",
  ],
  ["MC-12 non-finite occupancy is uncertain", snap({ occupancy: Number.NaN }), "fail-closed"],
  ["MC-12 negative image size is uncertain", snap({ strippableImages: images(-5) }), "fail-closed"],
  [
    "MC-12 broken byte budget figures are uncertain",
    snap({ byteBudget: { limit: 0, used: 10 } }),
    "fail-closed",
  ],
];

describe("MC-12 compression decision", () => {
  it.each(rows)("%s", (_name, snapshot, action) => {
    expect(decideCompression(snapshot).action).toBe(action);
  });

  it("MC-12 strips the fewest images, largest first, until the request fits", () => {
    const decision = decideCompression(
      snap({
        byteBudget: { limit: 1_000, used: 2_000 },
        strippableImages: [
          { id: "a", bytes: 300 },
          { id: "b", bytes: 800 },
          { id: "c", bytes: 400 },
        ],
      }),
    );
    expect(decision).toMatchObject({ action: "strip-images", imageIds: ["b", "c"] });
  });

  it("MC-12 exactly half strippable is rescued, just under half is not", () => {
    const at = (img: number) =>
      decideCompression(snap({ byteBudget: { limit: 1_000, used: 2_000 }, strippableImages: images(img) }))
        .action;
    expect(at(1_000)).toBe("strip-images");
    expect(at(999)).toBe("fail-closed");
  });
});
