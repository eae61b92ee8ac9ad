// `@cadre/core/testing`: helpers for tests only, kept off the main entry: reading event streams,
// translator fixtures, and the real harness binaries with environments that cannot leave loopback.
// No product source imports it (a source scan checks); the offline connector's model, which tests
// use too, is `@cadre/core/offline`.
export * from "./events.js";
export * from "./real-harnesses.js";
