// The few facts the hire-leads policy reads from Cadre's system prompt, as
// packages/company/src/prompts/build.ts writes them (hostRuntimeSegment, contactsSegment):
//
//   ## Company
//   Name: Northwind Robotics
//   ## Available connectors
//   - offline: Offline scripted model (deterministic, no network). Ready. Models: offline-scripted-1
//   - ceo-anthropic: Anthropic Messages API. Not ready (ANTHROPIC_API_KEY is not set). Models: a, b
//   ## Company directory
//   - CTO: Chief Technology Officer, engineering, offline/offline-scripted-1
//
// A section runs from its heading to the next `## ` heading. Anything else in the prompt is ignored.

export interface PromptConnector {
  id: string;
  ready: boolean;
  models: string[];
}

function section(system: string, heading: string): string[] {
  const lines = system.split("\n");
  const start = lines.findIndex((l) => l.trim() === heading);
  if (start < 0) return [];
  const rest = lines.slice(start + 1);
  const end = rest.findIndex((l) => l.startsWith("## "));
  return end < 0 ? rest : rest.slice(0, end);
}

const CONNECTOR_LINE = /^- ([^\s:]+): .*\. (Ready|Not ready \(.*\))\. Models: (.*)$/;

export function connectorsInPrompt(system: string): PromptConnector[] {
  return section(system, "## Available connectors").flatMap((line) => {
    const m = CONNECTOR_LINE.exec(line.trim());
    if (!m) return [];
    const models = (m[3] ?? "")
      .split(",")
      .map((s) => s.trim())
      .filter((s) => s && s !== "none");
    return [{ id: m[1] as string, ready: m[2] === "Ready", models }];
  });
}

/** The first ready connector with a model, and its first model. */
export function firstReadyConnector(system: string): { connectorId: string; model: string } | undefined {
  const c = connectorsInPrompt(system).find((x) => x.ready && x.models.length > 0);
  return c ? { connectorId: c.id, model: c.models[0] as string } : undefined;
}

/** Names of the agents the company directory lists. */
export function directoryNames(system: string): string[] {
  return section(system, "## Company directory").flatMap((line) => {
    const m = /^- ([^:]+): /.exec(line.trim());
    return m ? [(m[1] as string).trim()] : [];
  });
}

export function companyName(system: string): string | undefined {
  for (const line of section(system, "## Company")) {
    const m = /^Name: (.+)$/.exec(line.trim());
    if (m) return (m[1] as string).trim();
  }
  return undefined;
}
