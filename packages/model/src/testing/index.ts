// Test support of @cadre/model (kept out of the package build): hostile inputs derived from a
// schema, and a valid sample of every domain event.
export * from "./hostile.js";
export * from "./domain-events.js";
