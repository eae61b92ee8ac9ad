// Loads scenarios from directories of JSON files: the built-in set (evals/scenarios at the repo
// root) and any directory a user names. Ids are unique across everything loaded.
import { readdir, readFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import { UserInputError } from "@cadre/core";
import { EvalDataError, parseJson } from "../data/fields.js";
import { hashOf } from "../data/hash.js";
import { BUILTIN_SCENARIOS_DIR } from "../data/paths.js";
import { checkScenario } from "./check.js";
import { parseScenario } from "./parse.js";
import type { LoadedScenario } from "./types.js";

export async function loadScenarioFile(file: string): Promise<LoadedScenario> {
  const scenario = parseScenario(parseJson(await readFile(file, "utf8"), file), file);
  return { scenario, file, hash: hashOf(scenario) };
}

async function jsonFiles(dir: string): Promise<string[]> {
  try {
    return (await readdir(dir))
      .filter((f) => f.endsWith(".json"))
      .sort()
      .map((f) => join(dir, f));
  } catch (error) {
    throw new UserInputError(`cannot read the scenarios directory ${dir}: ${(error as Error).message}`);
  }
}

/**
 * Every scenario in the directories, parsed, seeded once into a scratch store and checked.
 * `only` keeps the named ids (an unknown id is an error).
 */
export async function loadScenarios(
  dirs: string[] = [BUILTIN_SCENARIOS_DIR],
  only?: string[],
): Promise<LoadedScenario[]> {
  const loaded: LoadedScenario[] = [];
  for (const dir of dirs) {
    const files = await jsonFiles(resolve(dir));
    if (files.length === 0) throw new UserInputError(`no scenario files (*.json) in ${resolve(dir)}`);
    for (const file of files) {
      const next = await loadScenarioFile(file);
      const clash = loaded.find((l) => l.scenario.id === next.scenario.id);
      if (clash)
        throw new EvalDataError(file, "id", `"${next.scenario.id}" is already the id of ${clash.file}`);
      await checkScenario(next);
      loaded.push(next);
    }
  }
  if (!only) return loaded;
  const unknown = only.filter((id) => !loaded.some((l) => l.scenario.id === id));
  if (unknown.length > 0)
    throw new UserInputError(
      `unknown scenario id(s): ${unknown.join(", ")}; known: ${loaded.map((l) => l.scenario.id).join(", ")}`,
    );
  return loaded.filter((l) => only.includes(l.scenario.id));
}
