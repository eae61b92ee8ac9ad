// The committed lock itself is checked where its files are read: cli/src/prompts/committed-lock.test.ts.
import { readFileSync } from "node:fs";
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

describe("MC-7 the lock renders every template branch", () => {
  const all = lockedTexts()
    .map((t) => t.text)
    .join("\n");

  it("every fixed piece of the generated segments' templates appears in some locked text", async () => {
    // The templates' own source: each string literal and each fixed piece of a template literal
    // (between its ${…} holes) must be rendered by the lock, or an edit to it would go unnoticed.
    const source = readFileSync(new URL("./build.ts", import.meta.url), "utf8");
    const body = source.slice(source.indexOf("function describeAgent"), source.indexOf("/** Values copied"));
    const pieces = [
      ...[...body.matchAll(/"([^"\n]*)"/g)].flatMap((m) => (m[1] as string).split(/\$\{[^}]*\}/)),
      ...[...body.matchAll(/`([^`\n]*)`/g)].flatMap((m) => (m[1] as string).split(/\$\{[^}]*\}/)),
      // Bare lower-case words are code (status values compared, keys); the wordings are checked below.
    ].filter((p) => /[A-Za-z]{3}/.test(p) && (/\s/.test(p) || /^[^a-z]/.test(p)) && !/[?"`{}]|\|\|/.test(p));
    expect(pieces.length).toBeGreaterThan(10);
    for (const piece of pieces)
      expect({ piece, locked: all.includes(piece) }).toEqual({ piece, locked: true });
    for (const branch of [
      "(no goal given)",
      "was approved.",
      "was rejected.",
      "was sent back for revision.",
      "Operator's note: {operator note}",
      "Models: none",
      "(no notes yet)",
    ])
      expect(all).toContain(branch);
  });

  it("no model-facing text carries an internal rule id", () => {
    for (const t of lockedTexts())
      expect({ id: t.id, ruleIds: t.text.match(/\b(MC|C4|OP)-\d+\b/g) ?? [] }).toEqual({
        id: t.id,
        ruleIds: [],
      });
  });
});
