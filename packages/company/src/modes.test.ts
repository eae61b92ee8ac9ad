import { CEO_MODES, type CeoMode } from "@cadre/model";
import { describe, expect, it } from "vitest";
import { CEO_TRANSITIONS, type CeoModeEvent, type CeoModeState, resolveCeoMode } from "./modes.js";
import { MODE_TOOLS } from "./tools/offer.js";

describe("C4-4 resolveCeoMode", () => {
  const table: Array<[CeoModeState, CeoMode]> = [
    [{ activeReports: 0, latestStrategy: null }, "team-building"],
    [{ activeReports: 1, latestStrategy: null }, "strategy-drafting"],
    [{ activeReports: 5, latestStrategy: null }, "strategy-drafting"],
    [{ activeReports: 3, latestStrategy: "pending" }, "awaiting-approval"],
    [{ activeReports: 0, latestStrategy: "pending" }, "awaiting-approval"],
    [{ activeReports: 3, latestStrategy: "rejected" }, "revising"],
    [{ activeReports: 3, latestStrategy: "revision_requested" }, "revising"],
    [{ activeReports: 3, latestStrategy: "approved" }, "operating"],
    [{ activeReports: 0, latestStrategy: "approved" }, "operating"],
  ];
  it.each(table)("%j → %s", (state, mode) => {
    expect(resolveCeoMode(state)).toBe(mode);
  });

  it("every mode is reachable from some state", () => {
    expect(new Set(table.map(([, m]) => m))).toEqual(new Set(CEO_MODES));
  });

  // Apply each event to a representative state of each mode and check the table agrees with the
  // function: the transition table is documentation that cannot drift from the code.
  const representative: Record<CeoMode, CeoModeState> = {
    "team-building": { activeReports: 0, latestStrategy: null },
    "strategy-drafting": { activeReports: 1, latestStrategy: null },
    "awaiting-approval": { activeReports: 3, latestStrategy: "pending" },
    revising: { activeReports: 3, latestStrategy: "rejected" },
    operating: { activeReports: 3, latestStrategy: "approved" },
  };
  const apply = (s: CeoModeState, e: CeoModeEvent): CeoModeState | undefined => {
    switch (e) {
      case "hire":
        return MODE_TOOLS[resolveCeoMode(s)].includes("hire_agent")
          ? { ...s, activeReports: s.activeReports + 1 }
          : undefined;
      case "last-report-leaves":
        return s.activeReports === 1 && s.latestStrategy === null ? { ...s, activeReports: 0 } : undefined;
      case "file-strategy":
        return MODE_TOOLS[resolveCeoMode(s)].includes("file_approval")
          ? { ...s, latestStrategy: "pending" }
          : undefined;
      case "approve":
        return s.latestStrategy === "pending" ? { ...s, latestStrategy: "approved" } : undefined;
      case "reject":
        return s.latestStrategy === "pending" ? { ...s, latestStrategy: "rejected" } : undefined;
      case "request-revision":
        return s.latestStrategy === "pending" ? { ...s, latestStrategy: "revision_requested" } : undefined;
    }
  };
  const events: CeoModeEvent[] = [
    "hire",
    "last-report-leaves",
    "file-strategy",
    "approve",
    "reject",
    "request-revision",
  ];
  for (const mode of CEO_MODES) {
    for (const event of events) {
      it(`transition ${mode} --${event}--> ${CEO_TRANSITIONS[mode][event] ?? "(not allowed)"}`, () => {
        const next = apply(representative[mode], event);
        expect(next === undefined ? undefined : resolveCeoMode(next)).toBe(CEO_TRANSITIONS[mode][event]);
      });
    }
  }

  it("awaiting-approval offers only the reply to the operator; team-building offers hiring and the reply", () => {
    expect(MODE_TOOLS["awaiting-approval"]).toEqual(["reply_to_operator"]);
    expect(MODE_TOOLS["team-building"]).toEqual(["hire_agent", "reply_to_operator"]);
  });
});
