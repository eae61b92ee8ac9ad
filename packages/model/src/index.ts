// @cadre/model: the domain's vocabulary, the text policy and the schema layer every package shares.
// Beneath store, company and core; depends on TypeBox only, and runs in the browser too.
export * from "./vocabulary.js";
export * from "./text-policy.js";
export * from "./schema.js";
export * from "./settings.js";
export * from "./usage.js";
export * from "./usage-schema.js";
export * from "./connector-fields.js";
export * from "./domain-events/index.js";
export * from "./entities/index.js";
