// A worker process (the built code) whose CEO run freezes the whole process, heartbeat included, at
// its third model call, as a hung or dying machine would; the test then SIGKILLs it there.
// Usage: node freezing-worker.mjs URL STORE_SCHEMA QUEUE_SCHEMA LEASE_MS
import { writeSync } from "node:fs";
import { offlineCeoScript } from "@cadre/company";
import { WakeWorker } from "../../../dist/cluster/worker.js";

const [url, schema, queueSchema, leaseMs] = process.argv.slice(2);
const script = (request) => {
  if (request.callIndex === 2) {
    // Synchronous: stdout to a pipe is asynchronous and would never flush from a frozen process.
    writeSync(1, "frozen\n");
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 120_000);
  }
  return offlineCeoScript(request);
};
await WakeWorker.start({
  url,
  schema,
  queue: { schema: queueSchema, expireInSeconds: 2, retryDelaySeconds: 1 },
  leaseMs: Number(leaseMs),
  pollMs: 100,
  wakeDefaults: { script },
  env: { ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" },
});
writeSync(1, "ready\n");
