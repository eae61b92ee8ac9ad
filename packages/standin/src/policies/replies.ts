// Small constructors for replies, so scripts read as what the model does.
import type {
  Answer,
  ErrorKind,
  ErrorReply,
  HangReply,
  ReplyBlock,
  StreamCut,
  ToolOffered,
} from "../types.js";

export const reply = {
  /** A text answer. */
  text(text: string): Answer {
    return { content: [{ type: "text", text }] };
  },
  /** An answer calling one tool (pass the ToolOffered to keep its namespace), optionally after a text. */
  toolCall(
    tool: string | Pick<ToolOffered, "name" | "namespace" | "builtin">,
    input: unknown,
    text?: string,
  ): Answer {
    const t: Pick<ToolOffered, "name" | "namespace" | "builtin"> =
      typeof tool === "string" ? { name: tool } : tool;
    const call: ReplyBlock = {
      type: "tool_call",
      name: t.name,
      input,
      ...(t.namespace ? { namespace: t.namespace } : {}),
      // A freeform tool takes its input as text: the call is a custom tool call on the wire.
      ...(t.builtin === "custom" && typeof input === "string" ? { freeform: true } : {}),
    };
    return { content: text ? [{ type: "text", text }, call] : [call] };
  },
  /** Any blocks. */
  blocks(...content: ReplyBlock[]): Answer {
    return { content };
  },
  /** An HTTP error in the vendor's format (`retryAfterSeconds` → `retry-after`). */
  error(
    kind: ErrorKind,
    options: { message?: string; status?: number; retryAfterSeconds?: number } = {},
  ): ErrorReply {
    const { retryAfterSeconds, ...rest } = options;
    return {
      type: "error",
      error: { kind, ...rest },
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    };
  },
  /** Never answer. */
  hang(): HangReply {
    return { type: "hang" };
  },
  /** The answer, stopped after `afterEvents` events the way `then` says. */
  cut(answer: Answer, afterEvents: number, then: StreamCut["then"] = "reset"): Answer {
    return { ...answer, cut: { afterEvents, then } };
  },
};
