// A Pi session file is checked before it is opened. Pi's SessionManager.open() never fails: a
// missing file silently becomes a new session with a new id, a file without a valid header is
// overwritten, and a broken line silently cuts the history before it. So the host reads the file
// first, and only a file that is exactly the session it asked for is resumed; anything else is a
// failed resume, healed once from the handoff digest (and the bad file is kept aside, not lost).
import { existsSync } from "node:fs";
import { readFile, rename } from "node:fs/promises";
import type { PiSdk } from "./sdk.js";

export type SessionFileCheck =
  | { ok: true }
  | {
      ok: false;
      reason: "missing" | "unreadable" | "no session header" | "another session" | "damaged lines";
      detail: string;
    };

export async function checkSessionFile(
  sdk: PiSdk,
  file: string,
  expectedId: string,
): Promise<SessionFileCheck> {
  if (!existsSync(file)) return { ok: false, reason: "missing", detail: `${file} does not exist` };
  let raw: string;
  try {
    raw = await readFile(file, "utf8");
  } catch (error) {
    return {
      ok: false,
      reason: "unreadable",
      detail: `${file}: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
  const lines = raw.split("\n").filter((l) => l.trim() !== "");
  const entries = sdk.parseSessionEntries(raw) as Array<{ type?: unknown; id?: unknown; parentId?: unknown }>;
  const header = entries[0];
  if (!header || header.type !== "session" || typeof header.id !== "string")
    return { ok: false, reason: "no session header", detail: `${file} has no valid session header` };
  if (header.id !== expectedId)
    return {
      ok: false,
      reason: "another session",
      detail: `${file} holds session ${header.id}, not ${expectedId}`,
    };
  if (entries.length !== lines.length)
    return {
      ok: false,
      reason: "damaged lines",
      detail: `${lines.length - entries.length} of ${lines.length} line(s) of ${file} do not parse`,
    };
  const ids = new Set(entries.slice(1).map((e) => e.id));
  const orphan = entries.slice(1).find((e) => typeof e.parentId === "string" && !ids.has(e.parentId));
  if (orphan)
    return {
      ok: false,
      reason: "damaged lines",
      detail: `${file}: entry ${String(orphan.id)} follows a missing entry (the history before it would be lost)`,
    };
  return { ok: true };
}

/** Keeps a file that failed its check beside the sessions (Pi would overwrite a damaged one). */
export async function setAside(file: string): Promise<string | undefined> {
  if (!existsSync(file)) return undefined;
  const aside = `${file}.damaged-${Date.now()}`;
  await rename(file, aside);
  return aside;
}
