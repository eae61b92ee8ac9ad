// The mutants are generated from the texts and code facts as they are now, by operators — never a
// fixed list. These tests pin the operator set (removing one fails), the size and spread of the
// generated set, stable ids, and that each kind of mutant changes what it says it changes.
import { MODE_DOCUMENTS, offeredTools } from "@cadre/company";
import type { ToolDefinition } from "@cadre/core";
import { describe, expect, it } from "vitest";
import { generateMutants, OPERATOR_NAMES, OPERATORS, selectMutants } from "./generate.js";
import { currentContext } from "./operators/context.js";

const ALL = generateMutants(7);
const byOperator = (op: string) => ALL.filter((m) => m.operator === op);
const fakeTools = (names: readonly string[]): ToolDefinition[] =>
  names.map((name) => ({ name, label: name, description: "", parameters: {} }) as unknown as ToolDefinition);

describe("mutation operators", () => {
  it("every documented operator is there and makes at least one mutant of the current prompts and code", () => {
    expect(OPERATOR_NAMES).toEqual([
      "delete-line",
      "negate-imperative",
      "change-number",
      "ban-to-permission",
      "permission-to-ban",
      "swap-documents",
      "replace-cue",
      "extend-cue",
      "drop-offer",
      "require-optional",
      "always-first",
    ]);
    for (const op of OPERATOR_NAMES) expect({ op, n: byOperator(op).length > 0 }).toEqual({ op, n: true });
    expect(ALL.length).toBeGreaterThanOrEqual(30);
    expect(new Set(ALL.map((m) => m.operator)).size).toBeGreaterThanOrEqual(8);
  });

  it("ids are unique, [a-z0-9-], and the same for the same seed; the seed draws the wordings", () => {
    const ids = ALL.map((m) => m.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
    expect(generateMutants(7).map((m) => m.id)).toEqual(ids);
    expect(generateMutants(7).map((m) => m.diff)).toEqual(ALL.map((m) => m.diff));
    // Another seed words some mutants differently, under the same ids (an id names what changed).
    const other = generateMutants(8);
    expect(other.map((m) => m.id)).toEqual(ids);
    expect(other.filter((m, i) => m.diff !== ALL[i]!.diff).length).toBeGreaterThan(0);
  });

  it("reads the documents as they are now: one more instruction line is one more delete-line mutant", () => {
    const ctx = currentContext(7);
    const more = {
      ...ctx,
      documents: {
        ...ctx.documents,
        operating: `${ctx.documents.operating}\n- Escalate a blocked task to the operator.`,
      },
    };
    const added = generateMutants(7, more).filter((m) => m.operator === "delete-line");
    expect(added.length).toBe(byOperator("delete-line").length + 1);
    expect(added.some((m) => m.diff.includes("-- Escalate a blocked task to the operator."))).toBe(true);
  });

  it("a deleted line is gone from the document the wake loads, and only in its mode", () => {
    const m = byOperator("delete-line").find((x) => x.description.includes("hire_agent tool"))!;
    const edited = m.edit.modeDocument!("team-building", MODE_DOCUMENTS["team-building"]);
    expect(edited).not.toContain("Hire each role with the hire_agent tool");
    expect(m.edit.modeDocument!("operating", MODE_DOCUMENTS.operating)).toBe(MODE_DOCUMENTS.operating);
    expect(m.modes).toEqual(["team-building"]);
    expect(m.diff).toMatch(/^--- mode\/team-building\n\+\+\+ .*\n@@ line \d+ @@\n-2\. Hire each role/);
  });

  it("a ban becomes a permission and a permission a ban; the range changes", () => {
    const ban = byOperator("ban-to-permission").find((m) => m.modes.includes("awaiting-approval"))!;
    const doc = ban.edit.modeDocument!("awaiting-approval", MODE_DOCUMENTS["awaiting-approval"]);
    expect(doc).not.toMatch(/do not file another strategy/i);
    const perm = byOperator("permission-to-ban")[0]!;
    const m = perm.modes[0]!;
    expect(perm.edit.modeDocument!(m, MODE_DOCUMENTS[m])).not.toMatch(/\byou may hire\b/);
    const range = byOperator("change-number").find((x) => x.diff.includes("three to five"))!;
    const changed = range.edit.modeDocument!("team-building", MODE_DOCUMENTS["team-building"]);
    expect(changed).not.toContain("three to five roles");
  });

  it("a tool dropped from a mode's offer is not given in that mode; equivalents say why, from code", () => {
    const drops = byOperator("drop-offer");
    expect(drops.length).toBe(
      (["team-building", "strategy-drafting", "awaiting-approval", "revising", "operating"] as const).reduce(
        (n, mode) => n + offeredTools({ isCeo: true }, mode).length,
        0,
      ),
    );
    const hire = drops.find((m) => m.id.startsWith("drop-offer-team-building-hire-agent"))!;
    const given = offeredTools({ isCeo: true }, "team-building");
    expect(hire.edit.toolOffer!("team-building", fakeTools(given)).map((t) => t.name)).not.toContain(
      "hire_agent",
    );
    expect(hire.edit.toolOffer!("operating", fakeTools(given)).map((t) => t.name)).toContain("hire_agent");
    expect(hire.equivalent).toBeUndefined();
    const waiting = drops.find((m) => m.id.startsWith("drop-offer-awaiting-approval-hire-agent"))!;
    expect(waiting.equivalent).toMatch(
      /hire_agent is refused in awaiting-approval and in every mode the CEO can reach/,
    );
  });

  it("an optional parameter made required is refused when it is missing", async () => {
    const { companyTools } = await import("@cadre/company");
    const m = byOperator("require-optional").find((x) =>
      x.id.startsWith("require-optional-hire-agent-department"),
    )!;
    const actor = { companyId: "c", agentId: null, via: "tool" as const, runId: null };
    const tools = companyTools({} as never, actor, ["hire_agent"]);
    const [mutated] = m.edit.toolOffer!("team-building", tools);
    const input = {
      name: "CTO",
      role: "Chief Technology Officer",
      description: "Builds.",
      connectorId: "offline",
      model: "m",
    };
    expect(tools[0]!.validate!(input)).toMatchObject({ ok: true });
    expect(mutated!.validate!(input)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/department/),
    });
  });

  it("--limit takes mutants in turn from each operator; an unknown operator is named", () => {
    const picked = selectMutants(ALL, { limit: 30 });
    expect(picked.length).toBe(30);
    expect(new Set(picked.map((m) => m.operator)).size).toBe(OPERATORS.length);
    expect(selectMutants(ALL, { operators: ["drop-offer"] }).every((m) => m.operator === "drop-offer")).toBe(
      true,
    );
    expect(() => selectMutants(ALL, { operators: ["shuffle-words"] })).toThrow(
      /unknown mutation operator "shuffle-words"; operators: delete-line, /,
    );
  });
});
