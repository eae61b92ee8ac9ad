// Several machines on one PostgreSQL database: wakes as jobs on a shared queue, workers that run
// them under leases, recovery of a dead worker's wakes, and the feed bus over LISTEN/NOTIFY.
export { LeaseLostError, WakeLease } from "./lease.js";
export { PostgresFeedBus } from "./pg-feed-bus.js";
export { recoverExpiredWakes } from "./recovery.js";
export { type ClusterParts, startClusterParts } from "./serve-parts.js";
export { isRetryableRun, isRetryableStartFailure } from "./retry-policy.js";
export {
  DEFAULT_WAKE_QUEUE,
  type Enqueued,
  WakeQueue,
  type WakeJob,
  type WakeQueueOptions,
  wakeChannel,
} from "./wake-queue.js";
export { type WakeOutcome, WakeWorker, type WorkerOptions } from "./worker.js";
