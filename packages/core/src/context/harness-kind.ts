// The harnesses whose context policy core decides (MC-8..MC-14). A plain union, so every rule
// below stays a pure function of data and can be table-tested without a live harness.

// The list itself is the domain's (@cadre/model's vocabulary).
export { HARNESS_KINDS, type HarnessKind } from "@cadre/model";

/** Where an error text came from. Stderr is diagnostic only and never drives recovery (MC-11). */
export type ErrorSource = "protocol" | "stderr";
