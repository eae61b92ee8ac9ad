// The key an agent's name is unique on within its company's active agents (model/text-policy.ts
// `nameKey`: NFKC, invisible characters removed, case-folded), stored hashed so that the unique
// index has a bounded entry whatever the name's length (PostgreSQL caps b-tree entries at ~2.7 kB).
import { createHash } from "node:crypto";
import { nameKey } from "@cadre/model";

export function agentNameKey(name: string): string {
  return createHash("sha256").update(nameKey(name), "utf8").digest("hex");
}
