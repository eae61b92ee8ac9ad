import { type ApprovalStatus, CEO_MODES, type CeoMode, WAKE_TRIGGERS, type WakeTrigger } from "@cadre/model";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { ceoCue, cueTokenCount, decideCeoMode, memberCue } from "./cues.js";
import { MODE_TITLES } from "../modes.js";
import { MODE_DOCUMENTS } from "../profiles/semantic/mode-documents.js";

describe("C4-3 semantic cues", () => {
  it("the team-building cue says the team is empty and points at the system prompt", () => {
    const cue = ceoCue("team-building", "start_team_building");
    expect(cue).toContain("You are the CEO.");
    expect(cue).toContain("Your team is currently empty.");
    expect(cue).toContain(
      "Review your Team Building Phase operating instructions in the system prompt, then take action.",
    );
  });

  for (const mode of CEO_MODES) {
    for (const trigger of WAKE_TRIGGERS) {
      const cue = ceoCue(mode, trigger);
      it(`${mode}/${trigger}: ≤80 o200k tokens, no tool names, paths, digits, shell or urgency words`, () => {
        expect(countTokens(cue)).toBeLessThanOrEqual(80);
        expect(cue).not.toMatch(
          /hire_agent|file_approval|create_task|assign_task|update_task|list_my_tasks|\bbash\b|fetch|https?|\/api\/|node -e|\bNOW\b|urgent|immediately|asap/i,
        );
        expect(cue).not.toMatch(/\d/);
        expect(cue).not.toMatch(/[/\\]\w/);
        // The cue names the same phase whose document the prompt loads (C4-4: one decision).
        expect(cue).toContain(MODE_TITLES[mode]);
        expect(MODE_DOCUMENTS[mode].startsWith(`# ${MODE_TITLES[mode]}`)).toBe(true);
      });
    }
  }

  for (const trigger of WAKE_TRIGGERS) {
    const cue = memberCue("Chief Technology Officer", trigger);
    it(`member/${trigger}: ≤80 o200k tokens, names what changed, no tool names, digits or urgency words`, () => {
      expect(countTokens(cue)).toBeLessThanOrEqual(80);
      expect(cue).not.toMatch(
        /hire_agent|file_approval|create_task|assign_task|update_task|list_my_tasks|\bbash\b|https?|\bNOW\b|urgent|immediately|asap/i,
      );
      expect(cue).not.toMatch(/\d/);
      expect(cue.startsWith("You are the Chief Technology Officer.")).toBe(true);
    });
  }

  it("work triggers name what changed, distinct from a routine wake, and never say how to act", () => {
    for (const t of [
      "task_assigned",
      "task_commented",
      "task_unblocked",
      "task_done",
      "task_resumed",
      "scheduled",
    ] as const) {
      expect(ceoCue("operating", t)).not.toBe(ceoCue("operating", "routine"));
      expect(memberCue("CTO", t)).not.toBe(memberCue("CTO", "routine"));
      expect(ceoCue("operating", t)).not.toMatch(/create_task|assign_task|update_task|list_my_tasks/);
    }
    expect(memberCue("CTO", "task_assigned")).toContain("A task has been assigned to you.");
    expect(ceoCue("operating", "task_done")).toContain("Work you delegated has been completed.");
  });

  it("an explicit operator action is distinguishable from a routine wake", () => {
    expect(ceoCue("team-building", "start_team_building")).not.toBe(ceoCue("team-building", "routine"));
    expect(ceoCue("operating", "approval_decided")).not.toBe(ceoCue("operating", "routine"));
  });

  it("C4-5 mode documents name no shell, fetch or HTTP detail", () => {
    for (const doc of Object.values(MODE_DOCUMENTS))
      expect(doc).not.toMatch(/\bbash\b|fetch|https?:|\/api\/|curl|node -e|POST/i);
    expect(MODE_DOCUMENTS["team-building"]).toMatch(/three to five/);
  });
});

describe("cue sizes are o200k BPE counts, never a character estimate (C4-3)", () => {
  // Pinned: re-derive with gpt-tokenizer's o200k_base when a cue's wording changes (and update the lock).
  const PINNED: Record<string, number> = {
    "team-building/start_team_building": 37,
    "team-building/approval_decided": 35,
    "team-building/routine": 27,
    "strategy-drafting/start_team_building": 46,
    "strategy-drafting/routine": 36,
    "awaiting-approval/approval_decided": 40,
    "revising/approval_decided": 42,
    "operating/routine": 25,
  };
  it("cueTokenCount is the BPE count: pinned figures, all different from length/4", () => {
    for (const [key, tokens] of Object.entries(PINNED)) {
      const [mode, trigger] = key.split("/") as [CeoMode, WakeTrigger];
      const cue = ceoCue(mode, trigger);
      expect({ key, tokens: cueTokenCount(cue) }).toEqual({ key, tokens });
      expect(Math.ceil(cue.length / 4)).not.toBe(tokens);
      expect(Math.round(cue.length / 4)).not.toBe(tokens);
    }
  });
});

describe("one CEO-mode decision (C4-4)", () => {
  for (const mode of CEO_MODES)
    it(`${mode}: the decision's cue and mode document name one phase`, () => {
      const activeReports = mode === "team-building" ? 0 : 2;
      const latestStrategy = {
        "team-building": null,
        "strategy-drafting": null,
        "awaiting-approval": "pending",
        revising: "rejected",
        operating: "approved",
      }[mode] as ApprovalStatus | null;
      for (const trigger of WAKE_TRIGGERS) {
        const d = decideCeoMode({ activeReports, latestStrategy });
        expect(d.mode).toBe(mode);
        expect(d.cueFor(trigger)).toBe(ceoCue(mode, trigger));
        expect(d.document).toBe(MODE_DOCUMENTS[mode]);
        expect(d.document.split("\n")[0]).toBe(`# ${d.title}`);
        expect(d.cueFor(trigger)).toContain(`Review your ${d.title} operating instructions`);
      }
    });
});
