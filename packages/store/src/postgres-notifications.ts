// One PostgreSQL connection per process that LISTENs on the channels its parts need (feed commits,
// queued wakes) and hands each notification to them. A notification is only a hint to re-read the
// store: when the connection drops, listeners are told (onReconnect) so that they re-read once, and
// it reconnects with backoff; nothing is lost, only delayed.
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { loadedPg, loadPg } from "./pg-driver.js";

type Handler = (payload: string) => void;

export class PgNotifications {
  private client: pg.Client | undefined;
  private readonly handlers = new Map<string, Set<Handler>>();
  private readonly reconnectHandlers = new Set<() => void>();
  private closed = false;
  private connecting: Promise<void> | undefined;

  constructor(
    private readonly url: string,
    private readonly log: (line: string) => void = () => {},
  ) {}

  /** Connects and LISTENs on every channel registered so far (later ones are LISTENed on at once). */
  start(): Promise<void> {
    this.connecting ??= this.connect();
    return this.connecting;
  }

  /** Returns the function that stops listening. */
  async listen(channel: string, handler: Handler): Promise<() => void> {
    let set = this.handlers.get(channel);
    if (!set) {
      this.handlers.set(channel, (set = new Set()));
      if (this.client) await this.client.query(`listen ${loadedPg().escapeIdentifier(channel)}`);
    }
    set.add(handler);
    return () => {
      set.delete(handler);
    };
  }

  /** The server process of the LISTEN connection (diagnostics, tests). */
  get backendPid(): number | undefined {
    return (this.client as { processID?: number } | undefined)?.processID;
  }

  onReconnect(handler: () => void): () => void {
    this.reconnectHandlers.add(handler);
    return () => this.reconnectHandlers.delete(handler);
  }

  async close(): Promise<void> {
    this.closed = true;
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const pg = await loadPg();
    const client = new pg.Client({
      connectionString: this.url,
      application_name: "cadre-listen",
      keepAlive: true,
    });
    client.on("notification", (message) => {
      for (const handler of this.handlers.get(message.channel) ?? []) {
        try {
          handler(message.payload ?? "");
        } catch {
          // A handler's failure is its own; the others still hear the news.
        }
      }
    });
    client.on("error", (error) => this.lost(client, error));
    client.on("end", () => this.lost(client, new Error("connection ended")));
    await client.connect();
    // Set first: a channel registered from now on is LISTENed on by listen() (twice is harmless).
    this.client = client;
    for (const channel of [...this.handlers.keys()])
      await client.query(`listen ${pg.escapeIdentifier(channel)}`);
  }

  private lost(client: pg.Client, error: Error): void {
    if (this.client !== client || this.closed) return;
    this.client = undefined;
    this.log(`cadre: lost the LISTEN connection (${error.message}); reconnecting`);
    void this.reconnect();
  }

  private async reconnect(): Promise<void> {
    for (let attempt = 1; !this.closed; attempt++) {
      await sleep(Math.min(5000, 100 * 2 ** attempt));
      if (this.closed) return;
      try {
        await this.connect();
        for (const handler of this.reconnectHandlers) handler();
        return;
      } catch (error) {
        this.log(`cadre: LISTEN reconnect failed (${(error as Error).message})`);
      }
    }
  }
}

/** The schema a store opened on `url` (with `schema`, if given) keeps its tables in. */
export async function storeSchema(url: string, schema?: string): Promise<string> {
  if (schema !== undefined) return schema;
  const { Client } = await loadPg();
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ schema: string | null }>("select current_schema() as schema");
    const found = rows[0]?.schema;
    if (!found) throw new Error("the connection's search_path names no existing schema");
    return found;
  } finally {
    await client.end();
  }
}
