// An operator's own mutation files (`cadre eval sensitivity --mutations DIR`), read into mutants
// beside the generated ones: run and listed the same way, outside the generated set's score.
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { COMPANY_TOOLS, MODE_DOCUMENTS, offeredTools } from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { CEO_MODES, type CeoMode } from "@cadre/model";
import { editTool } from "./operators/context.js";
import { lineDiff, type Mutant, type MutantEdit } from "./mutant.js";

const KNOWN = ["id", "description", "expectedFailure", "modeDocument", "toolDescription", "cue"];

/**
 * One file per mutation (JSON): `{ "id": "…", "description": "…", "expectedFailure"?: "G4",
 *   "modeDocument"?: { "mode": "team-building", "find": "…", "replace": "…" },
 *   "toolDescription"?: { "tool": "hire_agent", "description": "…" }, "cue"?: "…" }` — at least
 * one of the three edits.
 */
export async function loadMutations(dir: string): Promise<Mutant[]> {
  const files = (
    await readdir(dir).catch(() => {
      throw new UserInputError(`--mutations ${dir}: not a readable directory`);
    })
  ).filter((f) => f.endsWith(".json"));
  if (files.length === 0) throw new UserInputError(`--mutations ${dir}: no .json mutation files`);
  const out: Mutant[] = [];
  for (const file of files.sort()) out.push(await loadMutation(join(dir, file)));
  return out;
}

async function loadMutation(where: string): Promise<Mutant> {
  let raw: Record<string, unknown>;
  try {
    raw = JSON.parse(await readFile(where, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new UserInputError(
      `${where}: not JSON (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  const bad = (what: string) => new UserInputError(`${where}: ${what}`);
  const id = raw["id"];
  if (typeof id !== "string" || !/^[a-z0-9-]+$/.test(id)) throw bad(`"id" must be a string of [a-z0-9-]`);
  const extra = Object.keys(raw).find((k) => !KNOWN.includes(k));
  if (extra) throw bad(`unknown field "${extra}" (allowed: ${KNOWN.join(", ")})`);
  const md = raw["modeDocument"] as { mode?: unknown; find?: unknown; replace?: unknown } | undefined;
  const td = raw["toolDescription"] as { tool?: unknown; description?: unknown } | undefined;
  const cue = raw["cue"];
  if (!md && !td && cue === undefined) throw bad("give at least one of modeDocument, toolDescription, cue");
  const edit: MutantEdit = {};
  const modes = new Set<CeoMode>();
  const diffs: string[] = [];
  if (md) {
    const { mode, find, replace } = md;
    if (typeof mode !== "string" || typeof find !== "string" || typeof replace !== "string")
      throw bad("modeDocument needs string fields mode, find, replace");
    if (!(CEO_MODES as readonly string[]).includes(mode))
      throw bad(`modeDocument.mode "${mode}" is not a CEO mode (modes: ${CEO_MODES.join(", ")})`);
    const before = MODE_DOCUMENTS[mode as CeoMode];
    if (!before.includes(find)) throw bad(`modeDocument.find: the ${mode} document has no "${find}"`);
    const after = before.replaceAll(find, replace);
    edit.modeDocument = (m, d) => (m === mode ? after : d);
    modes.add(mode as CeoMode);
    diffs.push(lineDiff(`mode/${mode}`, before, after));
  }
  if (td) {
    const { tool, description } = td;
    if (typeof tool !== "string" || typeof description !== "string")
      throw bad("toolDescription needs string fields tool, description");
    const entry = COMPANY_TOOLS.find((t) => t.name === tool);
    if (!entry)
      throw bad(
        `toolDescription.tool "${tool}" is not a company tool (${COMPANY_TOOLS.map((t) => t.name).join(", ")})`,
      );
    edit.toolOffer = editTool(tool, (t) => ({ ...t, description }));
    for (const m of CEO_MODES) if (offeredTools({ isCeo: true }, m).includes(entry.name)) modes.add(m);
    diffs.push(lineDiff(`tool/${tool}/description`, entry.description, description));
  }
  if (cue !== undefined) {
    if (typeof cue !== "string") throw bad("cue must be a string");
    edit.cue = () => cue;
    for (const m of CEO_MODES) modes.add(m);
    diffs.push(lineDiff("cue", "(the cue of the wake's mode)", cue));
  }
  return {
    id,
    operator: "file",
    description: typeof raw["description"] === "string" ? raw["description"] : `operator mutation ${where}`,
    modes: [...modes],
    diff: diffs.join("\n"),
    edit,
  };
}
