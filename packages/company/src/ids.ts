// Record ids: a prefix naming what the record is, and 16 random hex digits. A leaf module, so that
// every folder can make ids without reaching up to the company's creation.
import { randomUUID } from "node:crypto";

export function newId(prefix: string): string {
  return `${prefix}_${randomUUID().replace(/-/g, "").slice(0, 16)}`;
}
