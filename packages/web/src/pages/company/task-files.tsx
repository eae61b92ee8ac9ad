// The files handed in with a task (the copies kept, as the API serves them): name, size, hash
// prefix and who attached it. Text opens in place — markdown rendered sanitised (no HTML, no
// images, links in a new tab), other text as plain text — and every file can be downloaded.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { TaskDetail } from "../../api/types.js";
import { renderMarkdown } from "../../ui/markdown.js";

type TaskFile = TaskDetail["files"][number];

const TEXT = new Set(["text/markdown", "text/plain", "text/csv", "application/json"]);

const path = (taskId: string, fileId: string) =>
  `/api/tasks/${encodeURIComponent(taskId)}/files/${encodeURIComponent(fileId)}`;

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} KiB`;
}

export function TaskFiles({
  api,
  taskId,
  files,
  who,
}: {
  api: Api;
  taskId: string;
  files: readonly TaskFile[];
  who(id: string): string;
}) {
  const [shown, setShown] = useState<{ id: string; text: string } | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  if (files.length === 0) return null;
  const open = async (f: TaskFile) => {
    setError(undefined);
    try {
      const { bytes } = await api.file(path(taskId, f.id));
      setShown({ id: f.id, text: new TextDecoder().decode(bytes) });
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const download = async (f: TaskFile) => {
    setError(undefined);
    try {
      const { bytes } = await api.file(path(taskId, f.id));
      const url = URL.createObjectURL(new Blob([bytes as BlobPart], { type: "application/octet-stream" }));
      const a = document.createElement("a");
      a.href = url;
      a.download = f.name.split("/").pop() ?? "file";
      a.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };
  const current = files.find((f) => f.id === shown?.id);
  return (
    <>
      <h4>Files handed in</h4>
      <ul class="task-files">
        {files.map((f) => (
          <li key={f.id} data-testid="task-file">
            <code>{f.name}</code>{" "}
            <span class="muted small">
              {size(f.size)} · sha256 {f.sha256.slice(0, 12)} · by {who(f.addedBy)}
            </span>{" "}
            {TEXT.has(f.mediaType) && (
              <button type="button" class="link" onClick={() => void open(f)}>
                Open {f.name}
              </button>
            )}{" "}
            <button type="button" class="link" onClick={() => void download(f)}>
              Download {f.name}
            </button>
          </li>
        ))}
      </ul>
      {error && (
        <p class="alert error" role="alert">
          {error}
        </p>
      )}
      {current && shown && (
        <section class="task-file-view" aria-label={`File ${current.name}`} data-testid="task-file-view">
          {current.mediaType === "text/markdown" ? (
            <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(shown.text) }} />
          ) : (
            <pre>{shown.text}</pre>
          )}
        </section>
      )}
    </>
  );
}
