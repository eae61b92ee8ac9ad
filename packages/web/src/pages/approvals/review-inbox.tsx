// The tasks handed in whose review is the operator's, in the inbox beside the approvals: those
// whose review rounds ran out (the CEO or a lead asked for changes as often as the company allows)
// and those the operator created. Each is decided here — accept, or request changes — or opened
// on the Tasks board.
import { useEffect } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { LiveCompany } from "../../hooks/use-company.js";
import { useList } from "../../hooks/use-list.js";
import { href } from "../../route.js";
import { useMe } from "../../session/permissions.js";
import { TaskReview } from "../actions/task-review.js";

export function ReviewInbox({ api, live }: { api: Api; live: LiveCompany }) {
  const me = useMe();
  const companyId = live.company?.id;
  const reviews = useList(
    api,
    "GET /api/companies/{id}/reviews",
    companyId ? { params: { id: companyId } } : undefined,
  );
  const { reload } = reviews;
  const version = live.tasks.map((t) => `${t.id}:${t.status}:${t.updatedAt}`).join();
  useEffect(() => reload(), [version, reload]);
  const mine = (reviews.data ?? []).filter((r) => r.reviewerAgentId === null);
  return (
    <section class="card wide" aria-labelledby="reviews-title" data-testid="review-inbox">
      <h2 id="reviews-title">Tasks waiting for your review ({mine.length})</h2>
      {reviews.error && (
        <p class="alert error" role="alert">
          {reviews.error}
        </p>
      )}
      {mine.length === 0 && <p class="muted">No task waits for your review.</p>}
      {mine.map((r) => (
        <article
          key={r.task.id}
          class="approval"
          data-testid="waiting-review"
          aria-labelledby={`rev-${r.task.id}`}
        >
          <header>
            <h3 id={`rev-${r.task.id}`}>{r.task.title}</h3>
            <p class="muted">
              {r.escalated
                ? `Review rounds ran out (${r.changeRounds} of ${r.bound} requests for changes): the decision is yours.`
                : "You created it: its review is yours."}{" "}
              <a href={`${href({ page: "company", companyId: r.task.companyId, tab: "tasks" })}`}>
                Open on the Tasks board
              </a>
            </p>
          </header>
          {me.may.act && (
            <TaskReview
              api={api}
              task={r.task}
              reviewer="you"
              onDone={() => {
                reload();
                live.reload(["tasks"]);
              }}
            />
          )}
        </article>
      ))}
    </section>
  );
}
