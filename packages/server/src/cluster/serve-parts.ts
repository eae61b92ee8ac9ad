// What `cadre serve` adds on PostgreSQL: the LISTEN/NOTIFY feed bus, so that its SSE subscribers see
// every commit of every process (other API instances, workers, the CLI), and, unless told not to,
// an embedded worker, so that one `cadre serve` on PostgreSQL also runs the queued wakes.
import { PgNotifications, storeSchema } from "@cadre/store";
import { PostgresFeedBus } from "./pg-feed-bus.js";
import { WakeWorker, type WorkerOptions } from "./worker.js";

export interface ClusterParts {
  bus: PostgresFeedBus;
  worker: WakeWorker | undefined;
  close(): Promise<void>;
}

export async function startClusterParts(options: { url: string; worker: boolean } & Omit<WorkerOptions, "url">): Promise<ClusterParts> {
  const notifications = new PgNotifications(options.url, options.log);
  let worker: WakeWorker | undefined;
  try {
    const bus = await PostgresFeedBus.open(notifications, await storeSchema(options.url, options.schema));
    if (options.worker) worker = await WakeWorker.start(options);
    return {
      bus,
      worker,
      async close() {
        await worker?.stop();
        await notifications.close();
      },
    };
  } catch (error) {
    await notifications.close();
    throw error;
  }
}
