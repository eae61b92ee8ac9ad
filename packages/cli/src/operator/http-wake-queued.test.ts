// `cadre wake --server URL` against an API that queued the wake (PostgreSQL, no worker free yet):
// there is no run to follow, so the CLI says the wake is queued instead of polling a run that does
// not exist. The API here is a local HTTP server answering with the route's documented shapes.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function api(): Promise<{ url: string; paths: string[] }> {
  const paths: string[] = [];
  server = createServer((req, res) => {
    paths.push(`${req.method} ${req.url}`);
    res.setHeader("content-type", "application/json");
    if (req.method === "GET" && req.url === "/api/agents/agt_1")
      return void res.end(JSON.stringify({ id: "agt_1", name: "CEO" }));
    if (req.method === "POST" && req.url === "/api/agents/agt_1/wake") {
      res.statusCode = 202;
      return void res.end(
        JSON.stringify({
          runId: null,
          profile: null,
          trigger: null,
          mode: null,
          cue: null,
          cueTokens: null,
          via: "queue",
          wakeId: "wake_1",
          coalesced: false,
          status: "queued",
        }),
      );
    }
    res.statusCode = 404;
    res.end(JSON.stringify({ error: { message: `no route ${req.url}` } }));
  });
  await new Promise<void>((done) => server!.listen(0, "127.0.0.1", done));
  return { url: `http://127.0.0.1:${(server!.address() as AddressInfo).port}`, paths };
}

it("a wake the server queued (no run yet) is reported as queued, with its wake id, and no run is polled", async () => {
  const { url, paths } = await api();
  const r = await runCli(["wake", "agt_1", "--json", "--server", url, "--token", "t"], {});
  expect(r.code, r.err).toBe(0);
  // With --json: the human line on stderr, the JSON line alone on stdout.
  expect(r.err).toMatch(/^wake wake_1 queued: no worker has started it yet/);
  expect(r.out).toBe(`${JSON.stringify({ wakeId: "wake_1", agentId: "agt_1", status: "queued" })}\n`);
  expect(r.json()).toEqual({ wakeId: "wake_1", agentId: "agt_1", status: "queued" });
  expect(paths).toEqual(["GET /api/agents/agt_1", "POST /api/agents/agt_1/wake"]);
});
