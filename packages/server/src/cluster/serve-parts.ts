// What `cadre serve` adds on PostgreSQL: the LISTEN/NOTIFY feed bus, so that its SSE subscribers see
// every commit of every process (other API instances, workers, the CLI); the wake queue, to enqueue
// wakes on; and, unless told not to, an embedded worker, so that one `cadre serve` on PostgreSQL
// also runs the queued wakes.
import { PgNotifications, storeSchema } from "@cadre/store";
import { PostgresFeedBus } from "./pg-feed-bus.js";
import { WakeQueue } from "./wake-queue.js";
import { WakeWorker, type WorkerOptions } from "./worker.js";

export interface ClusterParts {
  bus: PostgresFeedBus;
  /** Where this instance enqueues wakes (the API's wake route, once it enqueues rather than runs). */
  queue: WakeQueue;
  worker: WakeWorker | undefined;
  close(): Promise<void>;
}

export async function startClusterParts(
  options: { url: string; worker: boolean } & Omit<WorkerOptions, "url">,
): Promise<ClusterParts> {
  const notifications = new PgNotifications(options.url, options.log);
  let queue: WakeQueue | undefined;
  let worker: WakeWorker | undefined;
  try {
    const bus = await PostgresFeedBus.open(notifications, await storeSchema(options.url, options.schema));
    queue = await WakeQueue.open({
      url: options.url,
      ...options.queue,
      supervise: false,
      ...(options.log ? { log: options.log } : {}),
    });
    if (options.worker) worker = await WakeWorker.start(options);
    const opened = queue;
    return {
      bus,
      queue: opened,
      worker,
      async close() {
        await worker?.stop();
        await opened.stop();
        await notifications.close();
      },
    };
  } catch (error) {
    await queue?.stop();
    await notifications.close();
    throw error;
  }
}
