// Provider text is redacted of every configured key where it enters Cadre; the texts of
// a stored event that carry what a provider said are scrubbed of anything shaped like a credential
// here too, on every way out (the API's run events, SSE): a row an older build wrote, or a key nobody
// configured, never reaches an operator or an agent token as it is.
import { scrubSecrets } from "@cadre/company";

/** The event types whose texts carry what a provider said (its errors, the run's end). */
const PROVIDER_TEXT_EVENTS: ReadonlySet<string> = new Set(["error", "terminal", "retry"]);

/** An error's or terminal's texts with anything shaped like a credential scrubbed (see runView). */
export function scrubEventTexts(type: string, data: unknown): unknown {
  if (!PROVIDER_TEXT_EVENTS.has(type) || data === null || typeof data !== "object") return data;
  const record = data as Record<string, unknown>;
  let copy: Record<string, unknown> | undefined;
  for (const key of ["message", "reason"]) {
    const text = record[key];
    if (typeof text !== "string") continue;
    const clean = scrubSecrets(text);
    if (clean !== text) (copy ??= { ...record })[key] = clean;
  }
  return copy ?? data;
}
