// No scripted or stand-in model ever certifies behaviour: the offline model, Cadre's own stand-in
// and any model server that announces itself as a stand-in (its x-cadre-standin header, seen by the
// run's gateway on every response) give measured: false for G3–G5, whatever a sensitivity record
// says. A replay of a stand-in's cassettes is a stand-in's answers too.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { plumbingCeo, STANDIN_HEADER, startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runProfile } from "../evaluate.js";
import { measurementOf, type SensitivityResult } from "../sensitivity/sensitivity.js";
import type { Trace } from "../trace/types.js";

const ONE = ["empty-single-connector"];
const MODEL = "qwen2.5:14b-instruct-q4_K_M";
let dir: string;
let standin: StandinServer;
let unannounced: { url: string; close(): Promise<void> };

/**
 * An offline model double that does not announce itself, as a real model server would not: the
 * stand-in behind a proxy that drops its header. Only this tells it apart from a model here.
 */
async function unannouncedDouble(upstream: string): Promise<{ url: string; close(): Promise<void> }> {
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

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-standin-detect-"));
  standin = await startStandin({ policy: plumbingCeo() });
  unannounced = await unannouncedDouble(standin.url);
});
afterAll(async () => {
  await unannounced.close();
  await standin.close();
  await rm(dir, { recursive: true, force: true });
});

const traces = (r: { traces: Map<string, Trace[]> }) => [...r.traces.values()].flat();
const run = (baseUrl: string, extra: Parameters<typeof runProfile>[0] | object = {}) =>
  runProfile({
    profile: "semantic",
    connector: "openai-compatible",
    baseUrl,
    model: MODEL,
    samples: 1,
    seed: 1,
    concurrency: 1,
    only: ONE,
    ...extra,
  });

/** A record that claims everything: it must not matter on scripted answers. */
const PERFECT = {
  kind: "cadre-eval-sensitivity",
  createdAt: "2026-01-01T00:00:00Z",
  connector: "openai-compatible:qwen2.5:14b-instruct-q4_K_M",
  source: "live",
  reference: { kind: "control", dir: "x", note: "x" },
  control: { detected: false, gate: null, evidence: "held" },
  mutations: [],
  detected: 6,
  total: 6,
} as unknown as SensitivityResult;

describe("a model server that says it is a stand-in", () => {
  it("is detected on the wire: each trace says so and why; a server that does not say so is not", async () => {
    const announced = traces(await run(standin.openaiBaseUrl));
    expect(announced[0]).toMatchObject({ source: "live", terminal: "done" });
    expect(announced[0]!.standin).toMatch(/x-cadre-standin header/);
    const silent = traces(await run(unannounced.url));
    expect(silent[0]).toMatchObject({ source: "live", terminal: "done" });
    expect(silent[0]!.standin).toBeUndefined();
    // The same behaviour either way: only what the server says tells them apart.
    expect(silent[0]!.hires).toEqual(announced[0]!.hires);

    // Behaviour on the stand-in's answers is never measured, whatever the sensitivity record says.
    const m = measurementOf(announced, PERFECT.connector, PERFECT);
    expect(m).toMatchObject({ source: "scripted", behaviourMeasured: false });
    expect(m.note).toMatch(
      /^behaviour not measured: the model server is a stand-in, not a model: .*x-cadre-standin/,
    );
  }, 120_000);

  it("Cadre's own stand-in (--connector standin) and the offline model are scripted too", async () => {
    const own = traces(
      await runProfile({
        profile: "semantic",
        connector: "standin",
        samples: 1,
        seed: 1,
        concurrency: 1,
        only: ONE,
      }),
    );
    expect(own[0]!.standin).toMatch(/Cadre's own stand-in/);
    expect(measurementOf(own, "standin", { ...PERFECT, connector: "standin" })).toMatchObject({
      source: "scripted",
      behaviourMeasured: false,
    });
    const offline = traces(await runProfile({ profile: "semantic", samples: 1, seed: 1, only: ONE }));
    expect(measurementOf(offline, "offline", { ...PERFECT, connector: "offline" })).toMatchObject({
      source: "scripted",
      behaviourMeasured: false,
      note: "behaviour not measured: the offline model is scripted",
    });
  }, 120_000);

  it("a replay of a stand-in's cassettes is still the stand-in's answers", async () => {
    const cassettesDir = join(dir, "cassettes");
    await run(standin.openaiBaseUrl, { cassettes: "record", cassettesDir });
    const before = standin.requests.length;
    const replayed = traces(await run(standin.openaiBaseUrl, { cassettes: "replay", cassettesDir }));
    expect(standin.requests.length).toBe(before);
    expect(replayed[0]).toMatchObject({ source: "replayed" });
    expect(replayed[0]!.standin).toMatch(/replayed from a stand-in's recording .*x-cadre-standin/);
    expect(measurementOf(replayed, PERFECT.connector, PERFECT)).toMatchObject({
      source: "scripted",
      behaviourMeasured: false,
    });
  }, 120_000);
});
