// Codex's own retry notices ("Reconnecting... 2/5 (stream disconnected before completion: …)",
// "Reconnecting... waiting for network (Connection failed: …)") said the way every harness's retries
// are said in a run: "retrying (2 of 5): …", with the error code `retrying`, so an operator reads one
// form whatever the harness, and a reader of the run tells a retry from the failure that ends it.
import type { AgentEvent } from "../../../types.js";

type ErrorEvent = Extract<AgentEvent, { type: "error" }>;

const COUNTED = /^Reconnecting\.*\s*(\d+)\/(\d+)\s*(?:\((.*)\))?\s*$/s;
const WAITING = /^Reconnecting\.*\s*waiting for network\s*(?:\((.*)\))?\s*$/is;
const STATUS = /\b(?:status|HTTP)\s+(\d{3})\b/i;

/** The retry event for a Codex reconnect notice; undefined for any other message. */
export function retryNotice(message: string): ErrorEvent | undefined {
  const counted = COUNTED.exec(message);
  if (counted) {
    const reason = counted[3]?.trim();
    return retrying(`retrying (${counted[1]} of ${counted[2]}): ${answer(reason)}`);
  }
  const waiting = WAITING.exec(message);
  if (waiting) {
    const reason = waiting[1]?.trim();
    return retrying(`retrying: the provider could not be reached${reason ? ` (${reason})` : ""}`);
  }
  return undefined;
}

function answer(reason: string | undefined): string {
  if (!reason) return "the provider did not answer";
  const status = STATUS.exec(reason);
  return status ? `the provider answered ${status[1]} (${reason})` : reason;
}

const retrying = (message: string): ErrorEvent => ({
  type: "error",
  code: "retrying",
  retryable: true,
  message,
});
