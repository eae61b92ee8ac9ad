// The schema hashes a recording keeps are the registry's: the same hash the evaluation computes
// over each schema, for the tools G2 freezes, and the committed baseline's still match them.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { COMPANY_TOOLS } from "@cadre/company";
import { describe, expect, it } from "vitest";
import { hashOf } from "../data/hash.js";
import { toolSchemaHashes } from "./tool-schemas.js";

const BASELINE = fileURLToPath(
  new URL("../../../../evals/baselines/team-building/manifest.json", import.meta.url),
);

describe("the tool schema hashes a recording keeps", () => {
  it("are the registry's hashes, equal to the evaluation's own hash of each schema", () => {
    for (const tool of COMPANY_TOOLS) expect(tool.schemaHash).toBe(hashOf(tool.schema));
    const frozen = COMPANY_TOOLS.filter((t) => t.frozenByEval);
    expect(toolSchemaHashes()).toEqual(Object.fromEntries(frozen.map((t) => [t.name, hashOf(t.schema)])));
    expect(Object.keys(toolSchemaHashes())).toEqual(["hire_agent", "file_approval"]);
  });

  it("match the committed baseline's, so its G2 still compares like with like", () => {
    const manifest = JSON.parse(readFileSync(BASELINE, "utf8")) as { toolSchemas: Record<string, string> };
    expect(manifest.toolSchemas).toEqual(toolSchemaHashes());
  });
});
