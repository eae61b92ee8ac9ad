// What the operators read: the texts the CEO is shown and the code facts of what it is given, as
// they are now (the semantic profile's mode documents, the tool registry, the mode machine).
import {
  CEO_TRANSITIONS,
  COMPANY_TOOLS,
  type CompanyTool,
  MODE_DOCUMENTS,
  offeredTools,
  usableTools,
} from "@cadre/company";
import type { ToolDefinition } from "@cadre/core";
import { CEO_MODES, type CeoMode, type TSchema } from "@cadre/model";
import { lineDiff, type Mutant, type MutantEdit, mutantId } from "../mutant.js";

export interface OperatorContext {
  seed: number;
  documents: Readonly<Record<CeoMode, string>>;
  tools: readonly CompanyTool[];
  /** The company tools the CEO's session is given in a mode, and those whose calls can succeed there. */
  offered(mode: CeoMode): readonly string[];
  usable(mode: CeoMode): readonly string[];
  /** The modes a CEO wake starting in `mode` can reach by its own actions (hiring, filing). */
  reachable(mode: CeoMode): readonly CeoMode[];
}

const CEO_EVENTS = ["hire", "file-strategy", "last-report-leaves"] as const;

export function currentContext(seed: number): OperatorContext {
  return {
    seed,
    documents: MODE_DOCUMENTS,
    tools: COMPANY_TOOLS,
    offered: (mode) => offeredTools({ isCeo: true }, mode),
    usable: (mode) => usableTools({ isCeo: true }, mode),
    reachable: (mode) => {
      const seen = new Set<CeoMode>([mode]);
      const queue: CeoMode[] = [mode];
      for (let m = queue.shift(); m !== undefined; m = queue.shift())
        for (const e of CEO_EVENTS) {
          const next = CEO_TRANSITIONS[m][e];
          if (next && !seen.has(next)) {
            seen.add(next);
            queue.push(next);
          }
        }
      return CEO_MODES.filter((x) => seen.has(x));
    },
  };
}

/** A text the CEO reads, where it lives, who sees it, and how a changed copy is put in its place. */
export interface TextSite {
  label: string;
  modes: readonly CeoMode[];
  text: string;
  replace(after: string): MutantEdit;
}

export function documentSite(mode: CeoMode, text: string): TextSite {
  return {
    label: `mode/${mode}`,
    modes: [mode],
    text,
    replace: (after) => ({ modeDocument: (m, d) => (m === mode ? after : d) }),
  };
}

export const editTool =
  (name: string, edit: (t: ToolDefinition) => ToolDefinition) =>
  (_mode: CeoMode, tools: readonly ToolDefinition[]): ToolDefinition[] =>
    tools.map((t) => (t.name === name ? edit(t) : t));

/** Every text the operators rewrite: the mode documents, each offered tool's and parameter's description. */
export function textSites(ctx: OperatorContext): TextSite[] {
  const sites = CEO_MODES.map((mode) => documentSite(mode, ctx.documents[mode]));
  for (const tool of ctx.tools) {
    const modes = CEO_MODES.filter((m) => ctx.offered(m).includes(tool.name));
    if (modes.length === 0) continue;
    sites.push({
      label: `tool/${tool.name}/description`,
      modes,
      text: tool.description,
      replace: (after) => ({ toolOffer: editTool(tool.name, (t) => ({ ...t, description: after })) }),
    });
    const props = (tool.schema as { properties?: Record<string, TSchema & { description?: string }> })
      .properties;
    for (const [param, schema] of Object.entries(props ?? {}))
      if (typeof schema.description === "string")
        sites.push({
          label: `tool/${tool.name}/${param}`,
          modes,
          text: schema.description,
          replace: (after) => ({
            toolOffer: editTool(tool.name, (t) => withParameterDescription(t, param, after)),
          }),
        });
  }
  return sites;
}

function withParameterDescription(t: ToolDefinition, param: string, description: string): ToolDefinition {
  const schema = t.parameters as TSchema & { properties: Record<string, TSchema> };
  return {
    ...t,
    parameters: {
      ...schema,
      properties: { ...schema.properties, [param]: { ...schema.properties[param], description } },
    } as TSchema,
  };
}

/** A mutant that puts a changed copy of a text in its place. */
export function textMutant(
  operator: string,
  site: TextSite,
  after: string,
  description: string,
  original: string,
): Mutant {
  return {
    id: mutantId(operator, site.label, original),
    operator,
    description: `${site.label}: ${description}`,
    modes: site.modes,
    diff: lineDiff(site.label, site.text, after),
    edit: site.replace(after),
  };
}

/** The document with line `index` replaced (or removed when `line` is null). */
export function withLine(doc: string, index: number, line: string | null): string {
  const lines = doc.split("\n");
  if (line === null) lines.splice(index, 1);
  else lines[index] = line;
  return lines.join("\n");
}
