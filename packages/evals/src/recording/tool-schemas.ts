// The hashes of the company tools' input schemas as this build defines them. A recording keeps
// them, so G2 ("schema frozen") is a comparison of hashes, not of impressions.
import { fileApprovalSchema, hireAgentSchema } from "@cadre/company";
import { hashOf } from "../data/hash.js";

export function toolSchemaHashes(): Record<string, string> {
  return { hire_agent: hashOf(hireAgentSchema), file_approval: hashOf(fileApprovalSchema) };
}
