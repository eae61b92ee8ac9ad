// Every id the stand-in makes says so: `standin_` + the vendor's own kind + random hex, unique
// across server instances (Claude Code merges lines that share a message id, so ids must never repeat).
import { randomBytes } from "node:crypto";

export function standinId(kind: string): string {
  return `standin_${kind}_${randomBytes(12).toString("hex")}`;
}

/** The header on every response the stand-in sends. */
export const STANDIN_HEADER = "x-cadre-standin";
