// The HTTP status of a failed provider call, as Codex's own log shows it. Codex 0.163
// reports a provider's 5xx on its exec stream only as its generic "We're currently experiencing high
// demand…" text, and its rollout as `codex_error_info: internal_server_error`; the status and the
// provider's own message are lost there. Its HTTP client logs each response's status on stderr at
// debug level ("Request completed method=POST url=… status=500 Internal Server Error headers=…"),
// which the SDK hands back with a failed run. The provider's message itself Codex never passes on —
// not even at trace level (seen on the real binary against a stand-in answering 500 with a message) —
// so the run can show the status and say that the message was withheld, no more.

/** The log filter Cadre runs Codex with: errors, and the HTTP client's response lines only (no bodies). */
export const CODEX_LOG_FILTER = "error,codex_http_client::client=debug";

const RESPONSE_LINE = /Request completed method=\S+ url=\S+ status=(\d{3})([^\n]*?) headers=/;

/** The last non-2xx status Codex's log recorded (e.g. "500 Internal Server Error"), if any. */
export function providerStatus(log: string | undefined): string | undefined {
  if (log === undefined) return undefined;
  let status: string | undefined;
  for (const line of log.split("\n")) {
    const m = RESPONSE_LINE.exec(line);
    if (m && !m[1]!.startsWith("2")) status = `${m[1]}${m[2]!.trimEnd()}`;
  }
  return status;
}

/** Codex's error text without its HTTP client's response lines (they are read, not shown). */
export function withoutResponseLines(log: string): string {
  return log
    .split("\n")
    .filter((line) => !RESPONSE_LINE.test(line))
    .join("\n")
    .trim();
}

/**
 * A failed turn's text with the status the provider answered. On a 5xx Codex's text is its own
 * generic one, and the run says so; a 4xx's text carries the provider's message (seen: a 400's).
 */
export function failureWithStatus(codexText: string, status: string | undefined): string {
  if (status === undefined) return codexText;
  const withheld = status.startsWith("5") ? " (Codex does not pass on the provider's own message)" : "";
  return `the model provider answered HTTP ${status}; Codex reported "${codexText}"${withheld}`;
}
