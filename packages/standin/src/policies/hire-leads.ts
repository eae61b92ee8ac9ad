// hireLeads: a team-building CEO for tests of real harnesses. It acts only through the tools the
// request offers (loaded ones: a deferred tool cannot be called, so it is not used), one step per
// model call, reading the conversation to know where it is:
//   1. a tool ending in `hire_agent` (`mcp__cadre__hire_agent`, `cadre__hire_agent`, `hire_agent`):
//      hire each lead not yet attempted and not already in the prompt's company directory, one
//      call per step, with connectorId/model from the options, else the prompt's first ready
//      connector (prompt-facts.ts);
//   2. then, once, a tool ending in `file_approval`: the strategy (approve_ceo_strategy, a title,
//      a markdown plan naming the leads hired);
//   3. then a short text saying what happened, tool results included (refusals are quoted).
// A harness's compaction request gets a summary that records those calls (compaction.ts), so the
// steps continue after a compaction instead of starting over.
// With no hire tool it says so (naming what it was offered, and a deferred hire tool if any) and
// calls nothing; with no ready connector likewise.
import { findDeferredTool, findTool, toolNames } from "../tools.js";
import type { Policy, StandinRequest } from "../types.js";
import { qualifiedName } from "../usage/tokens.js";
import { compactionSummary, isCompactionRequest, pastCalls } from "./compaction.js";
import { companyName, connectorsInPrompt, directoryNames, firstReadyConnector } from "./prompt-facts.js";
import { reply } from "./replies.js";

export interface Lead {
  name: string;
  role: string;
  department: string;
  description: string;
}

export const DEFAULT_LEADS: readonly Lead[] = [
  {
    name: "CTO",
    role: "Chief Technology Officer",
    department: "engineering",
    description: "Owns the technology: architecture, the engineering team and delivery of the product.",
  },
  {
    name: "Head of Product",
    role: "Head of Product",
    department: "product",
    description: "Decides what we build and why: customer research, the roadmap and priorities.",
  },
  {
    name: "Head of Sales",
    role: "Head of Sales",
    department: "sales",
    description: "Brings in customers and revenue: pipeline, pricing conversations and closing deals.",
  },
];

export interface HireLeadsOptions {
  /** Hire on this connector (default: the prompt's first ready connector). */
  connectorId?: string;
  /** With this model (default: that connector's first model in the prompt). */
  model?: string;
  leads?: readonly Lead[];
}

function plan(company: string, hired: readonly Lead[]): string {
  return [
    `# Strategy for ${company}`,
    "",
    "## Team",
    ...hired.map((l) => `- ${l.name} (${l.department}): ${l.description}`),
    "",
    "## First quarter",
    "1. Agree the product's first release and who it is for.",
    "2. Build it, with a weekly review of progress against that goal.",
    "3. Win the first paying customers and feed what they say back into the roadmap.",
  ].join("\n");
}

export function hireLeads(options: HireLeadsOptions = {}): Policy {
  const leads = options.leads ?? DEFAULT_LEADS;
  return (request: StandinRequest) => {
    if (isCompactionRequest(request)) return reply.text(compactionSummary(request));
    const hire = findTool(request, "hire_agent");
    if (!hire) {
      const deferred = findDeferredTool(request, "hire_agent");
      const offered = toolNames(request).join(", ") || "none";
      return reply.text(
        deferred
          ? `I cannot hire: ${qualifiedName(deferred)} is only listed as deferred (not loaded), so I cannot call it. Tools I can call: ${offered}. (stand-in)`
          : `I cannot hire: no hire_agent tool was offered to me. Tools I can call: ${offered}. (stand-in)`,
      );
    }
    const connectorId = options.connectorId ?? firstReadyConnector(request.system)?.connectorId;
    const model =
      options.model ?? connectorsInPrompt(request.system).find((c) => c.id === connectorId)?.models[0];
    if (!connectorId || !model)
      return reply.text(
        "I cannot hire: my instructions list no ready connector with a model to hire on. (stand-in)",
      );

    const calls = pastCalls(request);
    const hires = calls.filter((c) => c.tool === qualifiedName(hire));
    const present = new Set(directoryNames(request.system));
    const next = leads.find((l) => !present.has(l.name) && !hires.some((h) => h.name === l.name));
    if (next) {
      const input = { ...next, connectorId, model };
      return reply.toolCall(hire, input, `Hiring a ${next.role} (${next.department}).`);
    }

    const hired = leads.filter(
      (l) => present.has(l.name) || hires.some((h) => h.name === l.name && h.outcome === "ok"),
    );
    const refused = hires
      .filter((h) => h.outcome === "refused")
      .map((h) => `${h.name}: ${h.result ?? "refused"}`);
    const file = findTool(request, "file_approval");
    const filing = file ? calls.find((c) => c.tool === qualifiedName(file)) : undefined;
    const company = companyName(request.system) ?? "the company";
    if (file && !filing) {
      const input = {
        type: "approve_ceo_strategy",
        title: `Strategy for ${company}: ${hired.length} leads`,
        payload: plan(company, hired),
      };
      return reply.toolCall(file, input, "The team is in place; filing the strategy for approval.");
    }
    const lines = [
      `Hired ${hired.length} of ${leads.length} leads${hired.length ? `: ${hired.map((l) => l.name).join(", ")}` : ""}.`,
      ...(refused.length ? [`Refused: ${refused.join("; ")}`] : []),
      !filing
        ? "No file_approval tool was offered, so the strategy is not filed."
        : filing.outcome === "refused"
          ? `Filing the strategy failed: ${filing.result ?? "refused"}`
          : `Strategy filed: ${filing.result ?? filing.outcome}`,
      "(stand-in)",
    ];
    return reply.text(lines.join("\n"));
  };
}
