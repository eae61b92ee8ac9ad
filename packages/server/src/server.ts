// startServer: the app on a loopback port. Loopback only: this API holds the operator's powers and
// speaks plain HTTP. Shutdown stops accepting, ends the event streams, cancels running wakes (their
// runs end `cancelled`, recorded), then closes the remaining connections.
import type { AddressInfo } from "node:net";
import { generateToken, OPERATOR_TOKEN_PREFIX } from "@cadre/company";
import { UserInputError } from "@cadre/core";
import { serve, type ServerType } from "@hono/node-server";
import { type AppDeps, type CadreApp, createApp } from "./app.js";

export const DEFAULT_PORT = 7420;
const LOOPBACK = new Set(["127.0.0.1", "::1", "localhost"]);

export interface StartServerOptions extends Omit<AppDeps, "apiUrl" | "operatorToken"> {
  /** Default 7420; 0 picks a free port. */
  port?: number;
  /** Default 127.0.0.1; only loopback addresses are accepted. */
  host?: string;
  /** Default: a fresh random token (printed by `cadre serve`). */
  operatorToken?: string;
}

export interface RunningServer {
  /** e.g. http://127.0.0.1:7420 */
  url: string;
  port: number;
  operatorToken: string;
  cadre: CadreApp;
  /**
   * Graceful: idempotent, resolves when every connection is closed, with the ids of the runs it
   * cancelled (their terminal's reason is `reason` when given, e.g. "cancelled by SIGTERM").
   */
  close(reason?: string): Promise<string[]>;
}

function listen(server: ServerType, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "EADDRINUSE"
          ? new UserInputError(
              `port ${port} is already in use; choose another with --port (0 picks a free one)`,
            )
          : error,
      );
    server.once("error", onError);
    server.once("listening", () => {
      server.off("error", onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

export async function startServer(options: StartServerOptions): Promise<RunningServer> {
  const host = options.host ?? "127.0.0.1";
  if (!LOOPBACK.has(host))
    throw new UserInputError(`the API listens on loopback only (127.0.0.1, ::1 or localhost), not "${host}"`);
  const port = options.port ?? DEFAULT_PORT;
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UserInputError(`port must be a whole number from 0 to 65535 (got ${port})`);
  const operatorToken = options.operatorToken ?? generateToken(OPERATOR_TOKEN_PREFIX);
  // Known once listening; the legacy profile's wakes (which only start after that) read it.
  const own: { url?: string } = {};
  const cadre = createApp({ ...options, operatorToken, apiUrl: () => own.url });
  const server = serve({ fetch: cadre.app.fetch, port, hostname: host });
  let address: AddressInfo;
  try {
    address = await listen(server, port);
  } catch (error) {
    await cadre.shutdown();
    throw error;
  }
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  own.url = url;
  // Connector probes refresh in the background from now on: requests read their outcomes.
  cadre.readiness.start();

  let closing: Promise<string[]> | undefined;
  const close = (reason?: string) =>
    (closing ??= (async () => {
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      const cancelled = await cadre.shutdown(reason);
      if ("closeIdleConnections" in server) server.closeIdleConnections();
      const force = setTimeout(() => {
        if ("closeAllConnections" in server) server.closeAllConnections();
      }, 2000);
      await closed;
      clearTimeout(force);
      return cancelled;
    })());
  return { url, port: address.port, operatorToken, cadre, close };
}
