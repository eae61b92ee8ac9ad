// A file handed in with a task, served as the copy kept: to the operator, or to an
// agent of the task's company. Never rendered by the browser as a page of ours: text is sent as
// plain text, anything else as a download, under a sandboxing CSP and no sniffing.
import { NotFoundError } from "@cadre/core";
import type { ServerContext } from "../context.js";
import { route } from "./define.js";

const TEXT = new Set(["text/markdown", "text/plain", "text/csv", "application/json"]);

async function fileScope(ctx: ServerContext, params: Record<string, string>) {
  const task = await ctx.store.getTask(params["id"] ?? "");
  if (!task) throw new NotFoundError(`task ${params["id"] ?? ""} not found`);
  const file = await ctx.store.getTaskFile(params["fileId"] ?? "");
  if (!file || file.taskId !== task.id)
    throw new NotFoundError(`task ${task.id} has no file ${params["fileId"] ?? ""}`);
  return { companyId: task.companyId, file };
}

/** The last path segment, with anything a header could misread replaced. */
function downloadName(name: string): string {
  return (name.split("/").pop() ?? "file").replace(/[^\w.-]/g, "_") || "file";
}

export const taskFileRoutes = [
  route({
    method: "get",
    path: "/api/tasks/{id}/files/{fileId}",
    summary:
      "One file handed in with the task: the copy kept when it was attached (X-Content-SHA256 says its hash).",
    access: "company",
    scope: fileScope,
    produces: "file",
    response: { status: 200, description: "The file's bytes.", schema: undefined },
    handle({ scope }) {
      const { file } = scope;
      const text = TEXT.has(file.mediaType);
      return new Response(Buffer.from(file.content), {
        status: 200,
        headers: {
          "content-type": text ? "text/plain; charset=utf-8" : "application/octet-stream",
          "content-disposition": `${text ? "inline" : "attachment"}; filename="${downloadName(file.name)}"`,
          "content-length": String(file.size),
          "x-content-sha256": file.sha256,
          "x-media-type": file.mediaType,
          "x-content-type-options": "nosniff",
          "content-security-policy": "sandbox; default-src 'none'",
          "cache-control": "private, max-age=0",
        },
      });
    },
  }),
];
