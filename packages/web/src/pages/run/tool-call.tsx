// One tool call as an operator reads it: a hire as a hire card, a filed strategy as its rendered
// (sanitised) markdown linked to its approval, a reply to the operator as a message, a task change
// linked to the task, anything else by its name. A failed call's error stays in view; the raw
// arguments and result are behind a "details" fold.
import type { RunItem } from "../../model/run-fold.js";
import { toolCard, type ToolCard } from "../../model/tool-card.js";
import { href } from "../../route.js";
import { renderMarkdown } from "../../ui/markdown.js";

/** Lines of arguments or results shown before "Show all". */
const CLIP_LINES = 10;

type ToolItem = Extract<RunItem, { kind: "tool" }>;

export interface ToolCallProps {
  item: ToolItem;
  companyId: string;
  /** Task titles by id: a task change is named by its title. */
  taskTitles: ReadonlyMap<string, string>;
  expanded: boolean;
  onToggle(key: string): void;
}

function title(card: ToolCard, name: string): string {
  switch (card.kind) {
    case "hire":
      return "Hire";
    case "approval":
      return card.type === "approve_ceo_strategy" ? "Strategy filed" : "Approval filed";
    case "reply":
      return "Reply to the operator";
    case "task":
      return "Task change";
    case "other":
      return name;
  }
}

export function ToolCallView({ item, companyId, taskTitles, expanded, onToggle }: ToolCallProps) {
  const card = toolCard(item);
  const failed = item.state === "failed" || item.state === "refused";
  return (
    <div class={`ev tool ${item.state}`} data-testid="tool-call" data-kind={card.kind}>
      <div class="tool-head">
        <span class="tool-name">{title(card, item.name)}</span>{" "}
        <span class={`badge ${failed ? "warn" : item.state === "done" ? "ok" : "info"}`}>{item.state}</span>
      </div>
      <Body card={card} companyId={companyId} taskTitles={taskTitles} />
      {failed && item.result !== undefined && (
        <p class="tool-error" data-testid="tool-error">
          {firstLines(item.result, 3)}
        </p>
      )}
      <details class="tool-raw">
        <summary>details</summary>
        <div class="muted small">tool {item.name}</div>
        <Clipped
          label="Arguments"
          text={item.args || "(no arguments)"}
          expanded={expanded}
          onToggle={() => onToggle(item.key)}
        />
        {item.result !== undefined && (
          <Clipped
            label={failed ? "Error result" : "Result"}
            text={item.result}
            expanded={expanded}
            onToggle={() => onToggle(item.key)}
          />
        )}
      </details>
    </div>
  );
}

function Body({
  card,
  companyId,
  taskTitles,
}: {
  card: ToolCard;
  companyId: string;
  taskTitles: ReadonlyMap<string, string>;
}) {
  const approvals = href({ page: "company", companyId, tab: "approvals" });
  switch (card.kind) {
    case "hire":
      return (
        <div class="hire-card" data-testid="hire-card">
          <p>
            <strong>{card.name}</strong> — {card.role}
          </p>
          {card.description && <p>{card.description}</p>}
          {(card.connectorId || card.model) && (
            <p class="muted small">on {[card.connectorId, card.model].filter(Boolean).join(" · ")}</p>
          )}
          {card.agentId && <p class="small">Hired: now in the team.</p>}
          {card.approvalId && (
            <p class="small">
              Filed for your approval: <a href={approvals}>approval {card.approvalId}</a>
            </p>
          )}
        </div>
      );
    case "approval":
      return (
        <div class="filed-card" data-testid="filed-card">
          {card.title && <h4>{card.title}</h4>}
          <div class="markdown payload" dangerouslySetInnerHTML={{ __html: renderMarkdown(card.payload) }} />
          {card.approvalId && (
            <p class="small">
              <a href={approvals} data-testid="filed-approval-link">
                Approval {card.approvalId}
              </a>
              {card.status && ` (${card.status})`}
            </p>
          )}
        </div>
      );
    case "reply":
      return (
        <div class="reply-card" data-testid="reply-card">
          <blockquote>{card.text}</blockquote>
          <p class="small">
            <a href={href({ page: "company", companyId, tab: "overview" })}>
              In the conversation with the CEO
            </a>
          </p>
        </div>
      );
    case "task": {
      const name = card.taskId ? (taskTitles.get(card.taskId) ?? card.title ?? card.taskId) : undefined;
      return (
        <p class="task-effect" data-testid="task-effect">
          {card.taskId && name ? (
            <>
              <a href={href({ page: "task", companyId, taskId: card.taskId })} data-testid="task-link">
                {name}
              </a>{" "}
            </>
          ) : (
            "task: "
          )}
          {/* Named by its title: the summary's leading id is left to the details. */}
          {card.taskId && name !== card.taskId ? card.summary.replace(`${card.taskId} `, "") : card.summary}
        </p>
      );
    }
    case "other":
      return null;
  }
}

function firstLines(text: string, n: number): string {
  const lines = text.split("\n");
  return lines.length > n ? `${lines.slice(0, n).join("\n")}\n…` : text;
}

function Clipped({
  label,
  text,
  expanded,
  onToggle,
}: {
  label: string;
  text: string;
  expanded: boolean;
  onToggle(): void;
}) {
  const lines = text.split("\n");
  const clipped = !expanded && lines.length > CLIP_LINES;
  return (
    <div class="clipped">
      <div class="clipped-label">{label}</div>
      <pre>{clipped ? `${lines.slice(0, CLIP_LINES).join("\n")}\n…` : text}</pre>
      {lines.length > CLIP_LINES && (
        <button type="button" class="link" aria-expanded={expanded} onClick={onToggle}>
          {expanded ? "Show less" : `Show all ${lines.length} lines`}
        </button>
      )}
    </div>
  );
}
