// The bench's load generator sends exactly the requests it is given, in order, and counts what it
// got back (never its speed: that is measured in `npm run bench` only).
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { runLoad } from "./generator.js";
import { startLoadDriver } from "./driver.js";

const seen: Array<{ method: string; path: string; body: string; auth: string }> = [];
const server = createServer((req, res) => {
  let body = "";
  req.on("data", (chunk: Buffer) => (body += chunk.toString()));
  req.on("end", () => {
    seen.push({ method: req.method!, path: req.url!, body, auth: req.headers.authorization ?? "" });
    res.writeHead(req.url === "/missing" ? 404 : 200, { "content-type": "application/json" });
    res.end("{}");
  });
});

async function listen(): Promise<string> {
  if (!server.listening) await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(() => {
  seen.length = 0;
});

describe("the bench's load generator", () => {
  it("sends a list of POSTs once each, in order over one connection, with their bodies and headers", async () => {
    const url = await listen();
    const requests = Array.from({ length: 25 }, (_, i) => ({ path: `/things/${i}`, body: `{"n":${i}}` }));
    const r = await runLoad({
      url,
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      connections: 1,
      requests,
    });
    expect(r).toMatchObject({ responses: 25, non2xx: 0, errors: 0 });
    expect(seen.map((s) => [s.method, s.path, s.body, s.auth])).toEqual(
      requests.map((q) => ["POST", q.path, q.body, "Bearer t"]),
    );
    expect(r.perSec).toBeGreaterThan(0);
    expect(r.p99Ms).toBeGreaterThanOrEqual(r.p50Ms);
  });

  it("repeats one GET `amount` times over several connections and counts the answers that were not 2xx", async () => {
    const url = await listen();
    const r = await runLoad({
      url,
      method: "GET",
      headers: {},
      connections: 4,
      requests: { path: "/missing", amount: 40 },
    });
    expect(r).toMatchObject({ responses: 40, non2xx: 40 });
    expect(seen).toHaveLength(40);
    server.close();
  });
});

// The driver forks the built generator (dist): it answers through the child process.
describe("the load driver", () => {
  it("runs a load in its forked child and stops it", async () => {
    const target = createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => target.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(target.address() as AddressInfo).port}`;
    const { startLoadDriver: startBuilt } = (await import(
      new URL("../../../dist/bench/load/driver.js", import.meta.url).href
    )) as { startLoadDriver: typeof startLoadDriver };
    const driver = await startBuilt();
    try {
      const r = await driver.run({
        url,
        method: "GET",
        headers: {},
        connections: 2,
        requests: { path: "/", amount: 10 },
      });
      expect(r).toMatchObject({ responses: 10, non2xx: 0 });
    } finally {
      await driver.close();
      target.close();
    }
  });
});
