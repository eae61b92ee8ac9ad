// Files attached to tasks (migration 023). The bytes are kept once per SHA-256 (base64 text, the
// same on both dialects) and the attachment row names them; nothing here updates either, so what
// was handed in is what is read back. A read re-hashes the bytes: a copy that no longer matches
// its recorded hash is reported, never served.
import { createHash } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { StoreError } from "./errors.js";
import type { Database, TaskFilesTable } from "./schema.js";
import type { NewTaskFile, TaskFileRow } from "./types.js";

const sha256 = (bytes: Uint8Array): string => createHash("sha256").update(bytes).digest("hex");

function toTaskFile(r: Selectable<TaskFilesTable>): TaskFileRow {
  return {
    id: r.id,
    taskId: r.task_id,
    companyId: r.company_id,
    name: r.name,
    sha256: r.sha256,
    size: Number(r.size),
    mediaType: r.media_type,
    addedBy: r.added_by,
    runId: r.run_id,
    createdAt: r.created_at,
  };
}

/** Run inside one transaction: the content (once per hash) and the attachment row. */
export async function attachTaskFile(db: Kysely<Database>, file: NewTaskFile): Promise<TaskFileRow> {
  const at = new Date().toISOString();
  const bytes = Buffer.from(file.content);
  const hash = sha256(bytes);
  await db
    .insertInto("file_contents")
    .values({ sha256: hash, size: bytes.length, content: bytes.toString("base64"), created_at: at })
    // The same content handed in twice is kept once; the existing row is never rewritten.
    .onConflict((oc) => oc.column("sha256").doNothing())
    .execute();
  const row = await db
    .insertInto("task_files")
    .values({
      id: file.id,
      task_id: file.taskId,
      company_id: file.companyId,
      name: file.name,
      sha256: hash,
      size: bytes.length,
      media_type: file.mediaType,
      added_by: file.addedBy,
      run_id: file.runId,
      created_at: at,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toTaskFile(row);
}

export async function listTaskFiles(db: Kysely<Database>, taskId: string): Promise<TaskFileRow[]> {
  const rows = await db
    .selectFrom("task_files")
    .selectAll()
    .where("task_id", "=", taskId)
    .orderBy("created_at")
    .orderBy("id")
    .execute();
  return rows.map(toTaskFile);
}

export async function getTaskFile(
  db: Kysely<Database>,
  id: string,
): Promise<(TaskFileRow & { content: Uint8Array }) | undefined> {
  const row = await db
    .selectFrom("task_files")
    .innerJoin("file_contents", "file_contents.sha256", "task_files.sha256")
    .selectAll("task_files")
    .select("file_contents.content")
    .where("task_files.id", "=", id)
    .executeTakeFirst();
  if (!row) return undefined;
  const content = Buffer.from(row.content, "base64");
  if (sha256(content) !== row.sha256)
    throw new StoreError(`the kept copy of file ${id} no longer matches its SHA-256 ${row.sha256}`);
  const { content: _stored, ...file } = row;
  return { ...toTaskFile(file), content: new Uint8Array(content) };
}
