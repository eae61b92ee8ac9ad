// The conversation with the CEO on the overview: the thread (the operator's messages and the CEO's
// answers, rendered as sanitised markdown), kept current by the company feed, and a box to write
// to the CEO — which wakes it. An operator's message carries its writer's name (a named operator's
// own; "the operator" for the unnamed one), marked "(you)" for the reader who wrote it. Said plainly next to the box: a message is read by the CEO as the
// operator's words and changes no phase, tool or decision (decisions are made under Approvals).
import { useEffect, useRef, useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import { useList } from "../../hooks/use-list.js";
import { formatTime } from "../../model/format.js";
import { ActionError } from "../../ui/action-error.js";
import { renderMarkdown } from "../../ui/markdown.js";
import { useAction } from "../../ui/use-action.js";
import { notAllowed, useMe } from "../../session/permissions.js";

/** Who wrote a message, as its reader sees it. */
function author(m: { from: string; fromName: string }, myName: string): string {
  if (m.from !== "operator") return m.fromName;
  const unnamed = m.fromName === "the operator";
  const name = unnamed ? "The operator" : m.fromName;
  const mine = unnamed ? myName === "operator" : myName === m.fromName;
  return mine ? `${name} (you)` : name;
}

export function CeoThread({
  api,
  companyId,
  messagesVersion,
}: {
  api: Api;
  companyId: string;
  /** Changes when a message was posted (the feed's message.posted). */
  messagesVersion: number;
}) {
  // The whole thread, page after page: one page holds the oldest messages only.
  const thread = useList(api, "GET /api/companies/{id}/messages", { params: { id: companyId } });
  const { reload } = thread;
  useEffect(() => reload(), [messagesVersion, reload]);
  const [text, setText] = useState("");
  const send = useAction();
  // Writing to the CEO is an operator's action (it wakes the CEO): a viewer reads the thread.
  const me = useMe();
  const items = thread.data ?? [];
  // The thread scrolls within its box: the latest message is kept in view as messages arrive.
  const list = useRef<HTMLOListElement>(null);
  const last = items.at(-1)?.id;
  useEffect(() => {
    const el = list.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [last]);
  return (
    <section class="card wide thread" aria-labelledby="thread-title">
      <h2 id="thread-title">Conversation with the CEO</h2>
      {items.length === 0 ? (
        <p class="muted">No message yet. Write to the CEO: it is woken and answers here.</p>
      ) : (
        <ol class="messages" data-testid="thread" ref={list}>
          {items.map((m) => (
            <li key={m.id} class={m.from === "operator" ? "from-operator" : "from-ceo"} data-testid="message">
              <p class="muted small">
                <strong data-testid="message-author">{author(m, me.name)}</strong> · {formatTime(m.at)}
              </p>
              <div class="markdown" dangerouslySetInnerHTML={{ __html: renderMarkdown(m.text) }} />
            </li>
          ))}
        </ol>
      )}
      {!me.may.act && <p class="muted">{notAllowed(me, "act")}</p>}
      {me.may.act && (
        <form
          aria-label="Write to the CEO"
          onSubmit={(e) => {
            e.preventDefault();
            void send
              .run(() =>
                api.call("POST /api/companies/{id}/messages", { params: { id: companyId }, body: { text } }),
              )
              .then((ok) => {
                if (!ok) return;
                setText("");
                reload();
              });
          }}
        >
          <label for="thread-text">Message to the CEO</label>
          <textarea id="thread-text" rows={3} value={text} onInput={(e) => setText(e.currentTarget.value)} />
          <p class="muted small">
            The CEO reads it as your words; it changes no phase, tool or decision (decide under Approvals).
          </p>
          <button type="submit" class="primary" aria-disabled={send.busy}>
            Send
          </button>
          <ActionError error={send.error ?? thread.error} />
        </form>
      )}
    </section>
  );
}
