// `@cadre/core/testing`: what exists for tests and for the offline connector, kept off the main entry.
// The deterministic scripted model (a real pi-ai stream function), its seeded randomness, fault
// injection at the provider boundary for rehearsals, and the helpers tests read event streams with.
// Product code may import it for the offline connector only (the scripted model is that connector's
// model), and says so where it does.
export * from "../offline/scripted-model.js";
export * from "../offline/seeded-random.js";
export * from "../offline/faults.js";
export * from "./events.js";
export * from "./real-harnesses.js";
