// Cassette files: one JSON file per recorded answer, named by its key (DIR/<key>.json). Two kinds:
// a Pi-routed model call's answer (`cadre-cassette`: the assistant message) and a Claude Code or
// Codex wake's translated event stream (`cadre-harness-cassette`). Both keep the normalised request
// and its per-part hashes, so a miss can be diagnosed (parts.ts). A file that does not parse is an
// error naming the file and the field, never a silent miss.
import { mkdir, readdir, readFile, rename, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { AgentEvent, AssistantMessage } from "@cadre/core";
import { SchemaVersion, type Static } from "@cadre/model";
import { Type } from "typebox";
import { UserInputError } from "@cadre/core";
import { atFile, EvalDataError, fail, parseJson, readAs, Sha256 } from "../data/fields.js";
import { KEY_PARTS, type Recorded } from "./parts.js";

const Parts = Type.Partial(Type.Object(Object.fromEntries(KEY_PARTS.map((p) => [p, Sha256()]))), {
  description: "The hash of each part of the request (parts.ts): a miss names the part that differs.",
});

const Common = {
  key: Sha256(),
  parts: Parts,
  volatiles: Type.Array(Type.String(), {
    description: "The request's generated ids and loopback addresses, mapped onto a replay's (key.ts).",
  }),
  latencyMs: Type.Number({ minimum: 0 }),
  recordedAt: Type.String({ minLength: 1 }),
  standin: Type.Optional(
    Type.String({
      minLength: 1,
      description:
        "Set when the answer came from a stand-in (scripted, not a model) and why: a replay of it measures no behaviour either.",
    }),
  ),
};

export const CassetteEntrySchema = Type.Object(
  {
    schemaVersion: SchemaVersion(2),
    kind: Type.Literal("cadre-cassette"),
    ...Common,
    messageHashes: Type.Array(Sha256(), { description: "One hash per normalised message, in order." }),
    request: Type.Unknown({
      description: "The normalised request, kept so a miss can be diagnosed by diffing against it.",
    }),
    response: Type.Object(
      { role: Type.Literal("assistant"), content: Type.Array(Type.Unknown()) },
      {
        additionalProperties: true,
        description: "The assistant message as the provider answered it (pi-ai's AssistantMessage).",
      },
    ),
  },
  { additionalProperties: false },
);

export const HarnessCassetteEntrySchema = Type.Object(
  {
    schemaVersion: SchemaVersion(1),
    kind: Type.Literal("cadre-harness-cassette"),
    ...Common,
    request: Type.Unknown({
      description: "The normalised wake: kind, model, system prompt, tools, MCP config, prompt.",
    }),
    events: Type.Array(Type.Object({ type: Type.String({ minLength: 1 }) }, { additionalProperties: true }), {
      minItems: 1,
      description: "The harness's translated event stream (the union events), ending with its terminal.",
    }),
  },
  { additionalProperties: false },
);

export type CassetteEntry = Omit<Static<typeof CassetteEntrySchema>, "response"> & {
  response: AssistantMessage;
};
export type HarnessCassetteEntry = Omit<Static<typeof HarnessCassetteEntrySchema>, "events"> & {
  events: AgentEvent[];
};
export type AnyCassetteEntry = CassetteEntry | HarnessCassetteEntry;

const KINDS = ["cadre-cassette", "cadre-harness-cassette"];

/** A cassette file that does not read as one: the run stops, naming the file and the field. */
export class CassetteCorruptError extends UserInputError {
  constructor(readonly problem: EvalDataError) {
    super(
      `damaged cassette ${problem.message}; delete the file or record again (--cassettes record)`,
      problem.fields,
    );
    this.name = "CassetteCorruptError";
  }
}

/** A cassette file's entry, checked against its schema; a CassetteCorruptError names the file and field. */
export function parseCassetteFile(text: string, file: string): AnyCassetteEntry {
  try {
    return parseEntry(text, file);
  } catch (error) {
    throw error instanceof EvalDataError ? new CassetteCorruptError(error) : error;
  }
}

function parseEntry(text: string, file: string): AnyCassetteEntry {
  const raw = parseJson(text, file);
  const kind = raw && typeof raw === "object" ? (raw as { kind?: unknown }).kind : undefined;
  if (kind === "cadre-harness-cassette") {
    const entry = readAs(HarnessCassetteEntrySchema, raw, atFile(file));
    const last = entry.events.at(-1);
    if (last?.type !== "terminal")
      fail(
        { file, path: `events[${entry.events.length - 1}]` },
        "the stream must end with its terminal event",
      );
    return entry as unknown as HarnessCassetteEntry;
  }
  if (kind === "cadre-cassette") {
    const entry = readAs(CassetteEntrySchema, raw, atFile(file));
    return { ...entry, response: entry.response as unknown as AssistantMessage };
  }
  return fail({ file, path: "kind" }, `must be one of ${KINDS.join(", ")} (got ${JSON.stringify(kind)})`);
}

export function cassetteFile(dir: string, key: string): string {
  return join(dir, `${key}.json`);
}

/** The entry recorded under `key`, undefined when there is none; a damaged file throws. */
export async function readEntry(dir: string, key: string): Promise<AnyCassetteEntry | undefined> {
  const file = cassetteFile(dir, key);
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
  const entry = parseCassetteFile(text, file);
  if (entry.key !== key)
    throw new CassetteCorruptError(
      new EvalDataError(file, "key", `is ${entry.key}, but the file is named for ${key}`),
    );
  return entry;
}

/** Writes an entry whole (a temp file renamed into place): a reader never sees half a cassette. */
export async function writeEntry(dir: string, entry: AnyCassetteEntry): Promise<void> {
  await mkdir(dir, { recursive: true });
  const file = cassetteFile(dir, entry.key);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(entry, null, 1)}\n`);
  await rename(temp, file);
}

/** Every entry of one directory (a scenario's), for a miss's diagnosis. Damaged files throw. */
export async function listEntries(dir: string): Promise<Array<Recorded & { kind: string }>> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const out: Array<Recorded & { kind: string }> = [];
  for (const name of names.filter((n) => n.endsWith(".json")).sort()) {
    const file = join(dir, name);
    const entry = parseCassetteFile(await readFile(file, "utf8"), file);
    out.push({
      key: entry.key,
      kind: entry.kind,
      parts: entry.parts,
      ...("messageHashes" in entry ? { messageHashes: entry.messageHashes } : {}),
    });
  }
  return out;
}

/**
 * Reads every cassette under `root` (one directory per scenario) before a replay starts: a damaged
 * file stops the run at once, naming the file and the field, instead of minutes into sampling.
 * Returns how many entries there are.
 */
export async function checkCassettes(root: string): Promise<number> {
  let count = 0;
  const walk = async (dir: string): Promise<void> => {
    for (const d of await readdir(dir, { withFileTypes: true })) {
      const path = join(dir, d.name);
      if (d.isDirectory()) await walk(path);
      else if (d.name.endsWith(".json")) {
        parseCassetteFile(await readFile(path, "utf8"), path);
        count++;
      }
    }
  };
  await walk(root);
  return count;
}
