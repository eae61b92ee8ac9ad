import { CEO_MODES, WAKE_TRIGGERS } from "@cadre/model";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { describe, expect, it } from "vitest";
import { ceoCue, memberCue } from "./cues.js";
import { MODE_DOCUMENTS, MODE_TITLES } from "./mode-documents.js";

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
