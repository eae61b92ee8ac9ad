// Known-bad prompt mutations (issue 13): each is a change a reviewer would expect the gates to
// catch, applied to what the CEO is sent — its mode document (through the prompt builder's
// evals-only hook; the locked text is untouched), its tool descriptions or its cue (by editing the
// request on its way to the model). They are candidates, run like breaks. The offline script is
// never taught to recognise them: its low detection rate is the finding.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { MODE_DOCUMENTS } from "@cadre/company";
import type { PiContext, StreamFn } from "@cadre/core";
import { UserInputError } from "@cadre/core";
import type { CeoMode } from "@cadre/model";
import { type Break, dropHiringInstruction } from "../runner/breaks.js";

export interface Mutation extends Break {
  /** The gate a correct harness fails for it (for the reader; detection is any gate failing). */
  expectedFailure: string;
}

const editRequest =
  (edit: (context: PiContext) => PiContext) =>
  (inner: StreamFn): StreamFn =>
  (model, context, options) =>
    inner(model, edit(context), options);

/** Replaces a tool's description in every request. */
export function toolDescription(tool: string, description: string) {
  return editRequest((context) => ({
    ...context,
    tools: (context.tools ?? []).map((t) => (t.name === tool ? { ...t, description } : t)),
  }));
}

/** Replaces the text of the first user message (the cue) in every request. */
export function replaceCue(text: string) {
  return editRequest((context) => {
    const i = context.messages.findIndex((m) => m.role === "user");
    if (i < 0) return context;
    const messages = [...context.messages];
    messages[i] = {
      ...(messages[i] as Extract<PiContext["messages"][number], { role: "user" }>),
      content: text,
    };
    return { ...context, messages };
  });
}

const inMode =
  (mode: CeoMode, edit: (document: string) => string) =>
  (m: CeoMode, document: string): string =>
    m === mode ? edit(document) : document;

export const BUILTIN_MUTATIONS: readonly Mutation[] = [
  {
    name: "tool-forbids-hiring",
    description: 'the hire_agent description reads "Do not call this tool. Never hire anyone."',
    expectedFailure: "G3",
    wrapStream: toolDescription("hire_agent", "Do not call this tool. Never hire anyone."),
  },
  {
    name: "mode-doc-one-role",
    description:
      'the team-building document asks for one role: "Hire exactly one role." replaces its team size',
    expectedFailure: "G4",
    modeDocument: inMode("team-building", (d) =>
      d.replace(/A reasonable team at this stage has[^.]*\./, "Hire exactly one role."),
    ),
  },
  {
    name: "mode-doc-no-hiring-step",
    description: "the team-building document loses its hiring step (every line naming hire_agent)",
    expectedFailure: "G4",
    modeDocument: dropHiringInstruction,
  },
  {
    name: "cue-irrelevant",
    description: "the cue is replaced by an irrelevant sentence",
    expectedFailure: "G3",
    wrapStream: replaceCue("The weather is mild today and the office coffee machine has been repaired."),
  },
  {
    name: "wrong-mode-document",
    description:
      "the team-building document is swapped for the operating one (wake.ts loading the wrong mode document)",
    expectedFailure: "G4",
    modeDocument: inMode("team-building", () => MODE_DOCUMENTS.operating),
  },
  {
    name: "tool-renamed-in-prose",
    description: "the mode documents call the tool recruit_agent (renamed in the prose only)",
    expectedFailure: "G3",
    modeDocument: (_mode, d) => d.replaceAll("hire_agent", "recruit_agent"),
  },
];

/**
 * An operator's mutation file (JSON, one per file in --mutations DIR):
 * `{ "id": "…", "description": "…", "expectedFailure": "G4",
 *    "modeDocument"?: { "mode": "team-building", "find": "…", "replace": "…" },
 *    "toolDescription"?: { "tool": "hire_agent", "description": "…" },
 *    "cue"?: "…" }` — at least one of the three edits.
 */
export async function loadMutations(dir: string): Promise<Mutation[]> {
  const files = (
    await readdir(dir).catch(() => {
      throw new UserInputError(`--mutations ${dir}: not a readable directory`);
    })
  ).filter((f) => f.endsWith(".json"));
  if (files.length === 0) throw new UserInputError(`--mutations ${dir}: no .json mutation files`);
  const out: Mutation[] = [];
  for (const file of files.sort()) {
    const where = join(dir, file);
    let raw: Record<string, unknown>;
    try {
      raw = JSON.parse(await readFile(where, "utf8")) as Record<string, unknown>;
    } catch (error) {
      throw new UserInputError(
        `${where}: not JSON (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    const id = raw["id"];
    if (typeof id !== "string" || !/^[a-z0-9-]+$/.test(id))
      throw new UserInputError(`${where}: "id" must be a string of [a-z0-9-]`);
    const known = new Set(["id", "description", "expectedFailure", "modeDocument", "toolDescription", "cue"]);
    const extra = Object.keys(raw).find((k) => !known.has(k));
    if (extra)
      throw new UserInputError(`${where}: unknown field "${extra}" (allowed: ${[...known].join(", ")})`);
    const md = raw["modeDocument"] as { mode?: unknown; find?: unknown; replace?: unknown } | undefined;
    const td = raw["toolDescription"] as { tool?: unknown; description?: unknown } | undefined;
    const cue = raw["cue"];
    if (!md && !td && cue === undefined)
      throw new UserInputError(`${where}: give at least one of modeDocument, toolDescription, cue`);
    if (md && (typeof md.mode !== "string" || typeof md.find !== "string" || typeof md.replace !== "string"))
      throw new UserInputError(`${where}: modeDocument needs string fields mode, find, replace`);
    if (td && (typeof td.tool !== "string" || typeof td.description !== "string"))
      throw new UserInputError(`${where}: toolDescription needs string fields tool, description`);
    if (cue !== undefined && typeof cue !== "string")
      throw new UserInputError(`${where}: cue must be a string`);
    const wraps = [
      ...(td ? [toolDescription(td.tool as string, td.description as string)] : []),
      ...(typeof cue === "string" ? [replaceCue(cue)] : []),
    ];
    out.push({
      name: id,
      description: typeof raw["description"] === "string" ? raw["description"] : `operator mutation ${file}`,
      expectedFailure: typeof raw["expectedFailure"] === "string" ? raw["expectedFailure"] : "any",
      ...(wraps.length > 0 ? { wrapStream: (inner: StreamFn) => wraps.reduce((f, w) => w(f), inner) } : {}),
      ...(md
        ? {
            modeDocument: (mode: CeoMode, d: string) =>
              mode === md.mode ? d.replaceAll(md.find as string, md.replace as string) : d,
          }
        : {}),
    });
  }
  return out;
}
