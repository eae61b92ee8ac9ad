// The committed lock itself is checked where its files are read: cli/src/prompts/committed-lock.test.ts.
import { CEO_MODES } from "@cadre/model";
import { describe, expect, it } from "vitest";
import { lockedTexts } from "./locked-texts.js";

describe("MC-7 every system-prompt text is locked", () => {
  it("gathers segments, every mode document and title, every cue, the tools and the generated templates", () => {
    const ids = lockedTexts().map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const mode of CEO_MODES)
      for (const id of [
        `mode/${mode}`,
        `mode-title/${mode}`,
        `cue/${mode}/start_team_building`,
        `cue/${mode}/routine`,
      ])
        expect(ids).toContain(id);
    for (const id of [
      "segment/harness-preset/pi",
      "segment/memory-rules",
      "segment/contacts/empty",
      "tools/order",
      "tool/hire_agent",
      "tool/file_approval",
      "template/host-runtime/ceo",
      "template/contacts/roster",
      "tools/order/ceo-operating",
      "tools/order/member",
      "tool/create_task",
      "tool/assign_task",
      "tool/update_task",
      "tool/list_my_tasks",
      "template/briefing/member",
      "template/briefing/ceo",
      "cue/member/task_assigned",
      "cue/operating/task_done",
    ])
      expect(ids).toContain(id);
    expect(lockedTexts().find((t) => t.id === "tool/hire_agent")?.text).toContain(
      '"description": "Hire a new agent into your company.',
    );
  });

  it("no text a model reads cites an internal rule id (C4-n, MC-n, OP-n: those are for tests and comments)", () => {
    for (const t of lockedTexts()) expect(t.text, t.id).not.toMatch(/\b(C4|MC|OP)-\d+/);
  });
});
