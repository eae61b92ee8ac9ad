// The hashes of the company tools' input schemas as this build defines them (each tool's registry
// entry). A recording keeps them, so G2 ("schema frozen") is a comparison of hashes, not of
// impressions; the tools G2 freezes are those whose entry says so.
import { COMPANY_TOOLS, toolSchemaHashes as registryHashes } from "@cadre/company";

export function toolSchemaHashes(): Record<string, string> {
  return registryHashes(COMPANY_TOOLS.filter((t) => t.frozenByEval));
}
