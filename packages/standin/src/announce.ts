// How a stand-in says what it is on the wire, and how a client tells: every response carries the
// `x-cadre-standin` header, every id it makes starts with `standin_`, and its model list names the
// stand-in as the models' owner (OpenAI's `owned_by`) or in their display names (Anthropic's). A
// client that sees any of these is talking to scripted answers, not to a model.
import { STANDIN_HEADER } from "./ids.js";

/** `owned_by` of every model the stand-in lists (OpenAI format). */
export const STANDIN_MODEL_OWNER = "cadre-standin";

type HeaderBag = Pick<Headers, "get"> | Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  if (typeof (headers as Headers).get === "function") return (headers as Headers).get(name) ?? undefined;
  const value = (headers as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(value) ? value.join(", ") : value;
}

/**
 * Why a response comes from a stand-in, or null when nothing says so: its header, a model list
 * owned by the stand-in, or a model id it names as its own.
 */
export function announcesStandin(evidence: {
  headers?: HeaderBag;
  /** A model list's entries (GET /v1/models), as parsed JSON. */
  models?: ReadonlyArray<{ id?: unknown; owned_by?: unknown; display_name?: unknown }>;
}): string | null {
  if (evidence.headers && header(evidence.headers, STANDIN_HEADER) !== undefined)
    return `the response carries the ${STANDIN_HEADER} header`;
  const owned = evidence.models?.find(
    (m) =>
      m.owned_by === STANDIN_MODEL_OWNER ||
      (typeof m.display_name === "string" && m.display_name.endsWith("(stand-in)")),
  );
  if (owned) return `its model list names the stand-in (${String(owned.id)})`;
  return null;
}
