// readsPrompt: a deterministic, rule-based CEO stand-in that acts only on what its request says —
// the cue, the mode document in the system prompt and the tool descriptions — so that a prompt or
// tool change a model would notice changes what it does. It is a stand-in, not judgement: every
// rule below is literal text matching, documented here, and the same request always gets the same
// answer (no seed). It exists to measure whether the evaluation's gates can see a prompt change
// (`cadre eval sensitivity`), never to stand in for a model's quality.
//
// The rules, in order, one step per model call (the conversation is in the request):
//   1. Cue. The first user message must ask to review some instructions ("Review your X operating
//      instructions"). A cue that asks for nothing gets a text reply and no tool call.
//   2. Instructions. The system prompt's `# X` section (the mode document). When there is none, the
//      first `# … Phase` section it carries: the system prompt is what the stand-in obeys.
//      Steps are the lines under `## What to do`.
//   3. Tools. A tool is usable when it is offered, a step names it, no step forbids it ("do not"
//      opening a sentence that names its action) and its own description does not forbid calling it
//      ("do not call", "do not use", "never call", "never use", "never hire").
//   4. Hiring. An unconditional step naming the hire tool ("Hire each role with hire_agent") hires
//      a team of the size the instructions state: "exactly N role(s)", or the middle of "N to M
//      roles" (rounded up), else three. A conditional step ("if", "only", "may") hires only
//      (a) up to three leads when the step is about a missing role and the directory has fewer,
//      or (b) when the operator's note says "add …": the first business function named after each
//      "add". Functions are ranked by keywords of the goal; those already in the directory are
//      skipped. Hires use the first ready connector with a model, as the prompt lists them.
//   5. Refusals. A refused hire whose result lists "allowed: a, b" is retried once with the first
//      allowed model; any other refusal ends hiring (the team limit, a closed mode).
//   6. Filing. When a step names the filing tool (usable), the strategy is filed once, after hiring.
//   7. Then a short text saying what was done. Every text ends "(stand-in)".
import { findTool, qualifiedName } from "../tools.js";
import type { Policy, StandinRequest, ToolOffered } from "../types.js";
import { toolExchanges } from "./conversation.js";
import { companyName, directoryNames, firstReadyConnector } from "./prompt-facts.js";
import { reply } from "./replies.js";

interface Role {
  department: string;
  name: string;
  role: string;
  description: string;
  keywords: readonly string[];
}

/** Business functions in their default order, with the words of a goal or note that name them. */
export const READS_PROMPT_ROLES: readonly Role[] = [
  {
    department: "engineering",
    name: "CTO",
    role: "Chief Technology Officer",
    description: "Owns the technology and leads the engineering work that builds the product.",
    keywords: ["build", "robot", "software", "platform", "api", "app", "engineer", "technical", "tool"],
  },
  {
    department: "product",
    name: "Head of Product",
    role: "Head of Product",
    description: "Decides what gets built first, from what customers need.",
    keywords: ["product", "platform", "app", "tool", "game", "saas", "customers"],
  },
  {
    department: "sales",
    name: "Head of Sales",
    role: "Head of Sales",
    description: "Finds and closes the first paying customers and owns revenue.",
    keywords: ["sell", "sales", "b2b", "enterprise", "revenue", "deals", "clients", "sold"],
  },
  {
    department: "marketing",
    name: "Head of Marketing",
    role: "Head of Marketing",
    description: "Builds the brand and the channels that bring customers in.",
    keywords: ["consumer", "community", "marketing", "brand", "growth", "mobile"],
  },
  {
    department: "operations",
    name: "Head of Operations",
    role: "Head of Operations",
    description: "Runs day-to-day operations, suppliers and delivery.",
    keywords: ["logistics", "delivery", "shop", "chain", "operations", "warehouse", "schedule", "service"],
  },
  {
    department: "design",
    name: "Head of Design",
    role: "Head of Design",
    description: "Owns the experience and the look of what we ship.",
    keywords: ["design", "game", "puzzle", "cosy"],
  },
  {
    department: "finance",
    name: "CFO",
    role: "Chief Financial Officer",
    description: "Owns the budget, the financial model and payments.",
    keywords: ["finance", "money", "accounting", "payments", "budget"],
  },
  {
    department: "legal",
    name: "Head of Legal",
    role: "Head of Legal and Compliance",
    description: "Keeps the company compliant: contracts, privacy and regulation.",
    keywords: ["legal", "compliance", "law", "regulation", "contracts", "privacy"],
  },
];

const NUMBERS: Record<string, number> = { one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7 };
const DEFAULT_TEAM = 3;
const FORBIDS_CALL = /\b(do not|don't|never)\s+(call|use|hire)\b/i;

const toNumber = (word: string): number | undefined =>
  NUMBERS[word.toLowerCase()] ?? (Number(word) || undefined);
const words = (text: string) => text.toLowerCase().match(/[a-z0-9]+/g) ?? [];

function firstUserText(request: StandinRequest): string {
  const first = request.messages.find((m) => m.role === "user");
  return (first?.content ?? []).flatMap((b) => (b.type === "text" ? [b.text] : [])).join("\n");
}

/** The `# title` section of the system prompt, to the next level-1 heading. */
function documentSection(
  system: string,
  title: string | undefined,
): { title: string; text: string } | undefined {
  const lines = system.split("\n");
  const start = lines.findIndex((l) => (title ? l.trim() === `# ${title}` : /^# .+ Phase$/.test(l.trim())));
  if (start < 0) return undefined;
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => /^# /.test(l));
  return {
    title: (lines[start] as string).slice(2).trim(),
    text: (end < 0 ? rest : rest.slice(0, end)).join("\n"),
  };
}

function steps(doc: string): string[] {
  const lines = doc.split("\n");
  const start = lines.findIndex((l) => l.trim() === "## What to do");
  if (start < 0) return [];
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => l.startsWith("## "));
  return (end < 0 ? rest : rest.slice(0, end)).map((l) => l.trim()).filter((l) => /^(\d+\.|-)\s/.test(l));
}

function sentences(text: string): string[] {
  return text.split(/(?<=[.;])\s+/);
}

interface ToolPlan {
  tool: ToolOffered;
  conditional: boolean;
  step: string;
}

/** Rule 3: the tool offered under `suffix`, if a step names it and nothing forbids it. */
function usable(
  request: StandinRequest,
  stepLines: string[],
  suffix: string,
  verb: RegExp,
): ToolPlan | undefined {
  const tool = findTool(request, suffix);
  if (!tool || FORBIDS_CALL.test(tool.description)) return undefined;
  // The steps name the tool bare; a harness offers it under its MCP server's prefix
  // (mcp__cadre__hire_agent in Claude Code), which a model reads as the same tool.
  const naming = stepLines.filter((s) => s.includes(suffix));
  if (naming.length === 0) return undefined;
  // A step forbids an action when one of its sentences is an order not to ("Do not … hire").
  const forbidden = stepLines.some((s) =>
    sentences(s.replace(/^(\d+\.|-)\s+/, "")).some((x) => /^do not\b/i.test(x.trim()) && verb.test(x)),
  );
  if (forbidden) return undefined;
  const step = naming[0] as string;
  return { tool, step, conditional: /\b(if|only|may)\b/i.test(step) };
}

/** Rule 4: the stated team size. */
function statedSize(doc: string): number {
  const exact = /\bexactly (\w+) roles?\b/i.exec(doc);
  if (exact && toNumber(exact[1] as string)) return toNumber(exact[1] as string) as number;
  const range = /\b(\w+) to (\w+) roles\b/i.exec(doc);
  const lo = range ? toNumber(range[1] as string) : undefined;
  const hi = range ? toNumber(range[2] as string) : undefined;
  return lo && hi ? Math.ceil((lo + hi) / 2) : DEFAULT_TEAM;
}

function rankRoles(goal: string): Role[] {
  const ws = words(goal);
  const score = (r: Role) => ws.filter((w) => r.keywords.some((k) => w.startsWith(k))).length;
  return [...READS_PROMPT_ROLES]
    .map((r, i) => ({ r, i, s: score(r) }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.r);
}

/** Rule 4b: the first business function named after each "add" of the note. */
function rolesAskedFor(note: string): Role[] {
  const out: Role[] = [];
  const parts = note
    .toLowerCase()
    .split(/\badd\b/)
    .slice(1);
  for (const part of parts) {
    const ws = words(part);
    let best: { role: Role; at: number } | undefined;
    for (const role of READS_PROMPT_ROLES) {
      const at = ws.findIndex((w) => w === role.department || role.keywords.some((k) => w.startsWith(k)));
      if (at >= 0 && (!best || at < best.at)) best = { role, at };
    }
    if (best && !out.includes(best.role)) out.push(best.role);
  }
  return out;
}

function line(system: string, label: string): string | undefined {
  return new RegExp(`^${label}: (.*)$`, "m").exec(system)?.[1]?.trim();
}

const done = (text: string) => reply.text(`${text} (stand-in)`);

export function readsPrompt(): Policy {
  return (request) => {
    const cue = firstUserText(request);
    const asked = /Review your (.+?) operating instructions/.exec(cue)?.[1];
    if (!asked) return done(`Your message asks me for nothing I can act on, so I have not acted.`);
    const doc = documentSection(request.system, asked) ?? documentSection(request.system, undefined);
    if (!doc) return done(`I found no ${asked} instructions in my system prompt, so I have not acted.`);
    const stepLines = steps(doc.text);
    const hire = usable(request, stepLines, "hire_agent", /\bhire\b/i);
    const file = usable(request, stepLines, "file_approval", /\bfile\b/i);
    const calls = toolExchanges(request);
    const hireCalls = hire ? calls.filter((c) => c.name === qualifiedName(hire.tool)) : [];
    const filed = file ? calls.some((c) => c.name === qualifiedName(file.tool)) : false;
    const directory = directoryNames(request.system);
    const members = directory.length > 0 ? directory.length - 1 : 0; // the CEO is listed too

    // Which roles to hire (rule 4).
    let wanted: Role[] = [];
    if (hire) {
      const note = line(request.system, "Operator's note") ?? "";
      const goal = line(request.system, "Goal") ?? "";
      const present = new Set(
        request.system
          .split("\n")
          .filter((l) => /^- [^:]+: /.test(l))
          .flatMap((l) =>
            READS_PROMPT_ROLES.filter((r) => l.includes(`, ${r.department}, `)).map((r) => r.department),
          ),
      );
      const open = rankRoles(goal).filter((r) => !present.has(r.department));
      if (!hire.conditional) wanted = open.slice(0, Math.max(0, statedSize(doc.text) - members));
      else if (/\bmissing\b/i.test(hire.step) && !/\bnote\b/i.test(hire.step))
        wanted = /\bgoal\b/i.test(hire.step) ? open.slice(0, Math.max(0, DEFAULT_TEAM - members)) : [];
      else if (/\bnote\b/i.test(hire.step))
        wanted = rolesAskedFor(note).filter((r) => !present.has(r.department));
    }

    // Rule 5: refusals.
    const last = hireCalls.at(-1);
    const refused = hireCalls.filter((c) => c.result?.isError);
    let stopHiring = false;
    if (hire && last?.result?.isError) {
      const allowed = /allowed: ([^;.\s,]+)/.exec(last.result.content)?.[1];
      const input = last.input as Record<string, unknown>;
      const retried = refused.filter(
        (c) => (c.input as Record<string, unknown>)["department"] === input["department"],
      );
      if (allowed && retried.length < 2 && input["model"] !== allowed)
        return reply.toolCall(
          hire.tool,
          { ...input, model: allowed },
          "Retrying that hire with an allowed model.",
        );
      stopHiring = true;
    }
    if (hire && !stopHiring && refused.length === 0) {
      const attempted = new Set(hireCalls.map((c) => (c.input as Record<string, unknown>)["department"]));
      const next = wanted.find((r) => !attempted.has(r.department));
      const route = firstReadyConnector(request.system);
      if (next && route)
        return reply.toolCall(
          hire.tool,
          {
            name: next.name,
            role: next.role,
            description: next.description,
            department: next.department,
            connectorId: route.connectorId,
            model: route.model,
          },
          `Hiring a ${next.role}.`,
        );
    }

    // Rule 6: filing.
    const hired = hireCalls.filter((c) => c.result && !c.result.isError);
    if (file && !filed) {
      const company = companyName(request.system) ?? "the company";
      const team = [
        ...directory.filter((n) => n !== "CEO").map((n) => `- ${n}`),
        ...hired.map((c) => `- ${String((c.input as Record<string, unknown>)["role"])}`),
      ];
      return reply.toolCall(
        file.tool,
        {
          type: "approve_ceo_strategy",
          title: `Strategy for ${company}`,
          payload: [
            `# Strategy for ${company}`,
            "",
            "## Team",
            ...team,
            "",
            "## First milestones",
            "- A first release.",
          ].join("\n"),
        },
        "Filing the strategy.",
      );
    }
    return done(
      `Followed the ${doc.title} instructions: ${hired.length} hire(s)${refused.length ? `, ${refused.length} refused` : ""}${filed ? ", strategy filed" : ""}.`,
    );
  };
}
