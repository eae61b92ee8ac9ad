// The domain's entities, one schema each: the store's record type is its `Static`, and the API's
// views are built from it (the fields they share, their types and their descriptions are written
// here once). `project` builds a view from a record.
export * from "./project.js";
export * from "./agent.js";
export * from "./connector.js";
export * from "./task.js";
export * from "./approval.js";
export * from "./run.js";
export * from "./company.js";
