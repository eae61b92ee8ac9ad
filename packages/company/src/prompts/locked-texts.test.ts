// The committed lock itself is checked where its files are read: cli/src/prompts/committed-lock.test.ts.
import { describe, expect, it } from "vitest";
import { CEO_MODES } from "../modes.js";
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
    ])
      expect(ids).toContain(id);
    expect(lockedTexts().find((t) => t.id === "tool/hire_agent")?.text).toContain(
      '"description": "Hire a new agent into your company.',
    );
  });
});
