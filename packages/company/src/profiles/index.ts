// What the company package exports of its prompt profiles: the registry and the driver interface,
// and the legacy profile's parts that tests and tools use by name.
export * from "./registry.js";
export * from "./offline-ceo-script.js";
export * from "./legacy/bash-tool.js";
export * from "./legacy/driver.js";
export * from "./legacy/fetch-command.js";
export * from "./legacy/initial-turn.js";
export * from "./legacy/locked-texts.js";
export * from "./legacy/offline-ceo-script.js";
export * from "./legacy/profile.js";
export * from "./semantic/driver.js";
