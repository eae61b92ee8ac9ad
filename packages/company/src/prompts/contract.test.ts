// The prompt contract: the shipped texts and code facts agree; each kind of disagreement, applied
// to a copy of the texts or of the offer (several wordings each, none of them the shipped one), is
// reported naming the text, the mode, the tool or limit and where they live. A static check.
import { CEO_MODES, type CeoMode } from "@cadre/model";
import { describe, expect, it } from "vitest";
import { checkPromptContract, type ContractInput, defaultContractInput } from "./contract.js";
import { toolMentions } from "./contract-clauses.js";
import { fileApprovalTool } from "../tools/file-approval.js";

const base = defaultContractInput();
const TOOLS = Object.keys(base.toolDescriptions);
const check = (change: (input: ContractInput) => ContractInput) =>
  checkPromptContract(change(defaultContractInput()));
const withDoc = (mode: CeoMode, f: (d: string) => string) =>
  check((i) => ({ ...i, documents: { ...i.documents, [mode]: f(i.documents[mode]) } }));
const withCue = (f: (cue: string) => string) => check((i) => ({ ...i, cue: (m, t) => f(base.cue(m, t)) }));
const facts = (ps: { fact: string }[]) => ps.map((p) => p.fact);
const ACTION_MODES = CEO_MODES.filter((m) => base.offer[m].usable.length > 0);

describe("the prompt contract", () => {
  it("holds for the shipped texts and offer", () => {
    expect(checkPromptContract()).toEqual([]);
  });

  it("refuses an offer that no longer gives a mode a tool its document tells the model to use", () => {
    let cases = 0;
    for (const mode of CEO_MODES)
      for (const tool of new Set(
        toolMentions(base.documents[mode], TOOLS)
          .filter((m) => !m.against)
          .map((m) => m.tool),
      )) {
        cases++;
        const problems = check((i) => ({
          ...i,
          offer: {
            ...i.offer,
            [mode]: { ...i.offer[mode], offered: i.offer[mode].offered.filter((t) => t !== tool) },
          },
        }));
        expect(problems).toContainEqual(
          expect.objectContaining({
            text: `mode/${mode}`,
            fact: `the ${mode} document tells the model to use ${tool}, but the ${mode} mode does not offer it (its session is not given the tool)`,
          }),
        );
      }
    // The code change a reviewer tried: file_approval taken from team-building's offer.
    expect(cases).toBeGreaterThanOrEqual(8);
    const filing = check((i) => ({
      ...i,
      offer: { ...i.offer, "team-building": { ...i.offer["team-building"], offered: ["hire_agent"] } },
    }));
    expect(filing[0]?.where).toContain("packages/company/src/tools/file-approval.ts");
  });

  it("reads the offer from the tool registry: a registry entry that stops offering a tool is refused", () => {
    const tool = fileApprovalTool as { roles: typeof fileApprovalTool.roles };
    const shipped = tool.roles;
    const ceo = shipped.ceo as NonNullable<typeof shipped.ceo>;
    tool.roles = { ceo: { ...ceo, offeredIn: ceo.offeredIn.filter((m) => m !== "team-building") } };
    try {
      expect(checkPromptContract(defaultContractInput())).toContainEqual({
        text: "mode/team-building",
        fact: "the team-building document tells the model to use file_approval, but the team-building mode does not offer it (its session is not given the tool)",
        where:
          "packages/company/src/profiles/semantic/mode-documents.ts; packages/company/src/tools/file-approval.ts (the modes file_approval is offered and usable in)",
      });
    } finally {
      tool.roles = shipped;
    }
    expect(checkPromptContract(defaultContractInput())).toEqual([]);
  });

  it("refuses a document that tells the model to use a tool whose calls cannot succeed in its mode", () => {
    for (const line of [
      "- Call hire_agent if a role is missing.",
      "If you see a gap, use the hire_agent tool.",
      "You may also file with file_approval, type approve_ceo_strategy.",
    ]) {
      const problems = withDoc("awaiting-approval", (d) => `${d}\n${line}`);
      expect(facts(problems).join("\n")).toMatch(
        /awaiting-approval document tells the model to use (hire_agent|file_approval), but a call to it cannot succeed/,
      );
    }
    // The same line is fine where the code lets the call succeed.
    expect(withDoc("strategy-drafting", (d) => `${d}\n- Call hire_agent if a role is missing.`)).toEqual([]);
  });

  it("refuses a document that never names a tool its mode lets succeed", () => {
    for (const mode of ACTION_MODES)
      for (const tool of base.offer[mode].usable)
        for (const other of ["recruit", "the usual tool", "ask_operator"]) {
          const problems = withDoc(mode, (d) => d.replaceAll(tool, other));
          expect(facts(problems)).toContain(
            `the ${mode} mode offers ${tool}, but its document never names it`,
          );
        }
  });

  it("refuses a document that keeps the model from a tool its mode offers for use, however the ban is worded", () => {
    const bans = [
      (t: string) => `Do not call ${t}.`,
      (t: string) => `Don't use ${t} in this phase.`,
      (t: string) => `Never reach for ${t}.`,
      (t: string) => `Avoid ${t} entirely.`,
      (t: string) => `Refrain from calling ${t}.`,
      (t: string) => `${t} is off limits for now.`,
      (t: string) => `${t} must not be used.`,
      (t: string) => `Under no circumstances should you call ${t}.`,
      (t: string) => `Stay away from ${t} here.`,
      (t: string) => `Leave ${t} alone.`,
    ];
    for (const mode of ACTION_MODES)
      for (const tool of base.offer[mode].usable)
        for (const ban of bans) {
          const problems = withDoc(mode, (d) => `${d}\n${ban(tool)}`);
          expect(facts(problems).join("\n")).toContain(`the ${mode} document keeps the model from ${tool}`);
        }
    // A ban on a tool the mode refuses anyway agrees with the code.
    expect(withDoc("awaiting-approval", (d) => `${d}\nDo not call hire_agent.`)).toEqual([]);
  });

  it("refuses a document that keeps the model from a tool its own calls make usable (filing after the first hire)", () => {
    const bans = [
      (t: string) => `When the team is in place, don't bother filing a strategy with ${t}.`,
      (t: string) => `Hold off on the strategy: leave ${t} alone until the operator asks.`,
      (t: string) => `Skip ${t} this time; the operator writes the strategy.`,
      (t: string) => `You must not call ${t} in this phase.`,
    ];
    const late = CEO_MODES.flatMap((mode) =>
      base.offer[mode].offered
        .filter((t) => !base.offer[mode].usable.includes(t))
        .filter((t) => {
          const next = base.transitions[mode];
          return [next.hire, next["file-strategy"]].some((m) => m && base.offer[m].usable.includes(t));
        })
        .map((tool) => ({ mode, tool })),
    );
    // team-building offers file_approval, which succeeds once a hire has moved it to strategy drafting.
    expect(late).toContainEqual({ mode: "team-building", tool: "file_approval" });
    for (const { mode, tool } of late)
      for (const ban of bans)
        expect(facts(withDoc(mode, (d) => `${d}\n${ban(tool)}`)).join("\n")).toContain(
          `the ${mode} document keeps the model from ${tool}, which the ${mode} mode offers and which succeeds once`,
        );
  });

  it("refuses a document naming a tool that does not exist", () => {
    for (const [from, to] of [
      ["the hire_agent tool", "the recruit_agent tool"],
      ["with the file_approval tool", "by calling submit_strategy"],
    ] as const) {
      const problems = withDoc("team-building", (d) => d.replace(from, to));
      expect(facts(problems).join("\n")).toMatch(
        /names a tool (recruit_agent|submit_strategy), which no mode offers/,
      );
    }
  });

  it("refuses a cue that tells the model to wait or not act in a mode that expects action, however worded", () => {
    const waits = [
      (c: string) => `${c} For now, wait for the operator before doing anything.`,
      (c: string) => c.replace("then take action", "then hold off until you are told"),
      (c: string) => `${c} There is no need to act yet.`,
      (c: string) => `Do nothing this time. ${c}`,
      (c: string) => `${c} You should only wait.`,
      (c: string) => c.replace("then take action", "then stand by"),
      (c: string) => `${c} Before doing anything, check with the operator and wait for an answer.`,
      (c: string) => `${c} Your next step is to wait.`,
      (c: string) => `${c} Nothing needs doing in this session.`,
    ];
    for (const wait of waits) {
      const problems = withCue(wait);
      for (const mode of ACTION_MODES)
        expect(problems).toContainEqual(
          expect.objectContaining({
            text: `cue/${mode} (every trigger)`,
            fact: expect.stringMatching(
              new RegExp(`tells the model to wait or not to act .* the ${mode} mode expects action`),
            ),
          }),
        );
      // Waiting agrees with a mode that has nothing the CEO can do.
      expect(
        problems.filter((p) => p.text.startsWith("cue/awaiting-approval") && /wait or not/.test(p.fact)),
      ).toEqual([]);
    }
    // Saying that something waits is not telling the model to wait, nor is "no need to wait".
    for (const fine of [
      (c: string) =>
        `${c.replace(/ Review.*/, "")} Your plan is waiting for review. Review your instructions, then take action.`,
      (c: string) => `${c} There is no need to wait for the operator.`,
      (c: string) => `${c} A task of yours is no longer blocked.`,
    ])
      expect(withCue(fine)).toEqual([]);
  });

  it("refuses a team size any text states beyond the code's limit, in any phrasing", () => {
    for (const size of [
      "three to nine roles",
      "between 4 and 10 roles",
      "up to twelve leadership roles",
      "no more than 9 hires",
      "a team of 15",
      "at least eight leads",
      "a dozen executives",
      "a leadership team no bigger than eleven",
      "as many as 10 direct reports",
    ]) {
      const problems = withDoc("team-building", (d) => d.replace("three to five roles", size));
      expect(facts(problems).join("\n")).toMatch(
        /states a team of (up to|at least) \d+, but the default team limit allows 7 besides the CEO/,
      );
    }
    for (const fine of [
      "two to four roles",
      "up to six roles",
      "between 3 and 7 roles",
      "three to five people",
      "a team no bigger than six",
    ])
      expect(withDoc("team-building", (d) => d.replace("three to five roles", fine))).toEqual([]);
    // Other counts are not team sizes.
    expect(
      withDoc("team-building", (d) => d.replace("one or two sentences", "nine or ten sentences")),
    ).toEqual([]);
    // The limit is a code fact: lower it and the shipped range no longer fits.
    expect(facts(check((i) => ({ ...i, teamLimit: 4 })))).toContainEqual(
      expect.stringMatching(/states a team of up to 5, but the default team limit allows 4/),
    );
    // Tool descriptions are texts too.
    const described = check((i) => ({
      ...i,
      toolDescriptions: {
        ...i.toolDescriptions,
        hire_agent: `${i.toolDescriptions.hire_agent} Hire up to 20 agents.`,
      },
    }));
    expect(described[0]).toMatchObject({
      text: "tool/hire_agent",
      fact: expect.stringMatching(/team of up to 20/),
    });
    // So is every other text a model can read: another profile's documents, the segments.
    const legacy = "mode/legacy/team-building";
    expect(base.otherTexts[legacy]).toBeDefined();
    const other = check((i) => ({
      ...i,
      otherTexts: {
        ...i.otherTexts,
        [legacy]: (i.otherTexts[legacy] as string).replace("three to five roles", "five to eleven roles"),
      },
    }));
    expect(other).toEqual([
      expect.objectContaining({ text: legacy, fact: expect.stringMatching(/team of up to 11/) }),
    ]);
  });

  it("refuses a tool description that tells the model not to use its tool", () => {
    for (const ban of [
      "Do not call this tool.",
      "Never use it for strategies.",
      "Avoid this tool unless asked.",
    ]) {
      const problems = check((i) => ({
        ...i,
        toolDescriptions: { ...i.toolDescriptions, file_approval: ban },
      }));
      expect(problems).toContainEqual({
        text: "tool/file_approval",
        fact: `the file_approval description tells the model not to use it ("${ban}")`,
        where: "packages/company/src/tools/file-approval.ts",
      });
    }
  });

  it("refuses machinery and urgency in a document, tool names, numbers and urgency in a cue", () => {
    const shell = withDoc("team-building", (d) => `${d}\nUse the bash tool to POST to /api/companies.`);
    expect(shell[0]?.fact).toMatch(/shell, fetch, HTTP or API paths \("bash"/);
    const urgent = withDoc("team-building", (d) => `${d}\nStart immediately.`);
    expect(urgent[0]?.fact).toMatch(/urgency words \("immediately"/);
    const cue = withCue(() => "You are the CEO. Call hire_agent 3 times NOW.");
    expect(facts(cue)).toEqual(
      expect.arrayContaining([
        "a cue names the tool hire_agent",
        'carries numbers ("3")',
        'carries urgency words ("NOW")',
      ]),
    );
    expect(cue[0]?.where).toBe("packages/company/src/prompts/cues.ts");
    // Findings speak plain words.
    expect(facts(cue).join(" ")).not.toMatch(/\b(C4|MC|OP)-\d/);
  });
});
