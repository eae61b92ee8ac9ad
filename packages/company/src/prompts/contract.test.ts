// The prompt contract: the shipped texts pass; each kind of disagreement, applied to a copy, is
// reported naming the text, the fact and where they live. A static check, not behaviour.
import { describe, expect, it } from "vitest";
import { checkPromptContract, type ContractInput, defaultContractInput } from "./contract.js";

const edit = (change: (input: ContractInput) => ContractInput) =>
  checkPromptContract(change(defaultContractInput()));
const withDoc = (mode: "team-building" | "awaiting-approval", f: (d: string) => string) =>
  edit((i) => ({ ...i, documents: { ...i.documents, [mode]: f(i.documents[mode]) } }));

describe("the prompt contract", () => {
  it("holds for the shipped texts", () => {
    expect(checkPromptContract()).toEqual([]);
  });

  it("a tool description that forbids its own tool", () => {
    const problems = edit((i) => ({
      ...i,
      toolDescriptions: { ...i.toolDescriptions, hire_agent: "Do not call this tool. Never hire anyone." },
    }));
    expect(problems).toContainEqual({
      text: "tool/hire_agent",
      fact: 'the hire_agent description tells the model not to use it ("Do not call")',
      where: "packages/company/src/tools/hire-agent.ts",
    });
  });

  it("a mode document that loses an offered tool, or names one its mode does not offer", () => {
    const lost = withDoc("team-building", (d) => d.replaceAll("hire_agent", "recruit_agent"));
    expect(lost.map((p) => p.fact)).toContain(
      "the team-building mode offers hire_agent, but its document never names it",
    );
    const extra = withDoc("awaiting-approval", (d) => `${d}\n- hire_agent, for a new role.`);
    expect(extra[0]).toMatchObject({
      text: "mode/awaiting-approval",
      where: expect.stringContaining("MODE_TOOLS"),
    });
    expect(extra[0]?.fact).toMatch(/names hire_agent, which the awaiting-approval mode does not offer/);
  });

  it("a stated team size beyond the code's limit, machinery and urgency in a document", () => {
    const big = withDoc("team-building", (d) => d.replace("three to five roles", "three to nine roles"));
    expect(big[0]?.fact).toMatch(/team of up to 9 roles; the default team limit allows 7/);
    const shell = withDoc("team-building", (d) => `${d}\nUse the bash tool to POST to /api/companies.`);
    expect(shell[0]?.fact).toMatch(/shell, fetch, HTTP or API paths \("bash"/);
    const urgent = withDoc("team-building", (d) => `${d}\nStart immediately.`);
    expect(urgent[0]?.fact).toMatch(/urgency words \("immediately"/);
  });

  it("a cue with a tool name, a number or urgency", () => {
    const problems = edit((i) => ({ ...i, cue: () => "You are the CEO. Call hire_agent 3 times NOW." }));
    const facts = problems.map((p) => p.fact);
    expect(facts).toContain("a cue names the tool hire_agent (C4-3)");
    expect(facts).toContain('a cue carries numbers ("3"; C4-3)');
    expect(facts).toContain('a cue carries urgency words ("NOW"; C4-3)');
    expect(problems[0]?.where).toBe("packages/company/src/prompts/cues.ts");
  });
});
