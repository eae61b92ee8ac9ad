export * from "./entry.js";
export * from "./registry.js";
export * from "./offer.js";
export * from "./validate.js";
export * from "./hire-agent.js";
export * from "./file-approval.js";
export * from "./task-tools.js";
