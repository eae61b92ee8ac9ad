// plumbingCeo: a prompt-blind CEO stand-in that exercises the evaluation's live path — a real wire,
// the rate gateway, cassettes, tool calls, refusals and retries — and nothing else. It is not
// judgement and it does not read instructions: it never looks at the cue, the mode documents or
// the tool descriptions, never reads the prompt lock and never compares texts with known versions.
// So a prompt change cannot change what it does, and its runs never measure behaviour (the server
// says it is a stand-in on every response, and the evaluation reports its behaviour gates as not
// measured). It reads only the structure code writes into every request:
//   - the tools offered (a tool ending in `hire_agent`, one ending in `file_approval`);
//   - the prompt's `## Available connectors` and `## Company directory` sections (prompt-facts.ts);
//   - the results of its own earlier calls in the conversation.
// One step per model call:
//   1. While the directory holds fewer than three members besides the CEO and hiring has not been
//      refused, hire the next lead (a fixed list of business functions, those already in the
//      directory skipped) on the first ready connector with a model. A refusal whose result lists
//      "allowed: a, b" is retried once with the first allowed model; any other refusal ends hiring.
//   2. Then, once, file a strategy through the filing tool.
//   3. Then a short text saying what happened. Every text ends "(stand-in)".
import { findTool, qualifiedName } from "../tools.js";
import type { Policy } from "../types.js";
import { toolExchanges } from "./conversation.js";
import { companyName, directoryNames, firstReadyConnector } from "./prompt-facts.js";
import { reply } from "./replies.js";

interface Lead {
  department: string;
  name: string;
  role: string;
  description: string;
}

/** The business functions it hires, in order (those already in the directory are skipped). */
export const PLUMBING_CEO_LEADS: readonly Lead[] = [
  {
    department: "engineering",
    name: "CTO",
    role: "Chief Technology Officer",
    description: "Owns the technology and leads the engineering work that builds the product.",
  },
  {
    department: "product",
    name: "Head of Product",
    role: "Head of Product",
    description: "Decides what gets built first, from what customers need.",
  },
  {
    department: "sales",
    name: "Head of Sales",
    role: "Head of Sales",
    description: "Finds and closes the first paying customers and owns revenue.",
  },
  {
    department: "marketing",
    name: "Head of Marketing",
    role: "Head of Marketing",
    description: "Builds the brand and the channels that bring customers in.",
  },
  {
    department: "operations",
    name: "Head of Operations",
    role: "Head of Operations",
    description: "Runs day-to-day operations, suppliers and delivery.",
  },
];

const TEAM = 3;

const done = (text: string) => reply.text(`${text} (stand-in)`);

export function plumbingCeo(): Policy {
  return (request) => {
    const hire = findTool(request, "hire_agent");
    const file = findTool(request, "file_approval");
    const calls = toolExchanges(request);
    const hireCalls = hire ? calls.filter((c) => c.name === qualifiedName(hire)) : [];
    const filing = file ? calls.find((c) => c.name === qualifiedName(file)) : undefined;
    const directory = directoryNames(request.system);
    const members = Math.max(0, directory.length - 1); // the CEO is listed too
    const present = new Set(
      request.system
        .split("\n")
        .filter((l) => /^- [^:]+: /.test(l))
        .flatMap((l) => PLUMBING_CEO_LEADS.filter((r) => l.includes(`, ${r.department}, `)))
        .map((r) => r.department),
    );

    const last = hireCalls.at(-1);
    const refused = hireCalls.filter((c) => c.result?.isError);
    if (hire && last?.result?.isError) {
      const allowed = /allowed: ([^;.\s,]+)/.exec(last.result.content)?.[1];
      const input = last.input as Record<string, unknown>;
      const again = refused.filter(
        (c) => (c.input as Record<string, unknown>)["department"] === input["department"],
      );
      if (allowed && again.length < 2 && input["model"] !== allowed)
        return reply.toolCall(hire, { ...input, model: allowed }, "Retrying that hire.");
    }
    const hired = hireCalls.filter((c) => c.result && !c.result.isError);
    if (hire && refused.length === 0) {
      const attempted = new Set(hireCalls.map((c) => (c.input as Record<string, unknown>)["department"]));
      const open = PLUMBING_CEO_LEADS.filter(
        (r) => !present.has(r.department) && !attempted.has(r.department),
      );
      const next = members + hired.length < TEAM ? open[0] : undefined;
      const route = firstReadyConnector(request.system);
      if (next && route)
        return reply.toolCall(
          hire,
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
    if (file && !filing) {
      const company = companyName(request.system) ?? "the company";
      const team = [
        ...directory.filter((n) => n !== "CEO").map((n) => `- ${n}`),
        ...hired.map((c) => `- ${String((c.input as Record<string, unknown>)["role"])}`),
      ];
      return reply.toolCall(
        file,
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
    const filed = filing?.result && !filing.result.isError;
    return done(
      `${hired.length} hire(s)${refused.length ? `, ${refused.length} refused` : ""}${filing ? (filed ? ", strategy filed" : ", filing refused") : ""}.`,
    );
  };
}
