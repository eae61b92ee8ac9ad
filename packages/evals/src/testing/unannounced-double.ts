// Tests only: an offline model double that does not announce itself, as a real model server would
// not — the stand-in behind a proxy that drops its x-cadre-standin header. Only that header tells it
// apart from a model, so a run on it is a "live" run of a prompt-blind policy.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { STANDIN_HEADER } from "@cadre/standin";

export async function unannouncedDouble(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const answer = await fetch(`${upstream}${req.url}`, {
      method: req.method ?? "GET",
      headers: { "content-type": "application/json" },
      ...(req.method === "POST" ? { body: Buffer.concat(chunks) } : {}),
    });
    const headers: Record<string, string> = {};
    answer.headers.forEach((v, k) => {
      if (k !== STANDIN_HEADER && k !== "content-length" && k !== "content-encoding") headers[k] = v;
    });
    res.writeHead(answer.status, headers);
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    close: () => new Promise((ok) => (server.closeAllConnections(), server.close(() => ok()))),
  };
}
