// One server-sent event as it goes on the wire.
export interface SseFrame {
  /** The `event:` line; OpenAI Chat Completions sends none. */
  event?: string;
  /** The `data:` payload, already serialised (`[DONE]` for the chat terminator). */
  data: string;
}

export function sseFrame(event: string | undefined, data: unknown): SseFrame {
  return { ...(event ? { event } : {}), data: typeof data === "string" ? data : JSON.stringify(data) };
}

export function serialiseFrame(frame: SseFrame): string {
  return `${frame.event ? `event: ${frame.event}\n` : ""}data: ${frame.data}\n\n`;
}
