// `cadre chat`: the operator writes to the CEO and reads the thread, on the local
// store and through a running API (--server); a message wakes the CEO (operator_message) at the
// next `cadre run` locally and at once in a server; `follow` prints what arrives until Ctrl-C; an
// empty message is bad input (exit 2, one line, nothing written).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type RunningServer, startServer } from "@cadre/server";
import { openStore } from "@cadre/store";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { OFFLINE_ENV, runCli } from "../testing/run-cli.js";
import { cliEnv, startCli } from "../testing/spawn-cli.js";

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-chat-"));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("cadre chat, locally", () => {
  it("sends, shows, refuses an empty message, and the next cadre run wakes the CEO for it", async () => {
    const demo = await runCli(["demo", "--data", dir, "--json", "--seed", "5"]);
    expect(demo.code, demo.err).toBe(0);
    const ceoId = demo.json().ceo.agentId as string;

    const empty = await runCli(["chat", "send", "", "--data", dir]);
    expect(empty.code).toBe(2);
    expect(empty.err.trim().split("\n")).toHaveLength(1);
    expect(empty.err).toMatch(/text/);

    const sent = await runCli([
      "chat",
      "send",
      "Where do we stand?\nKeep it short.",
      "--data",
      dir,
      "--json",
    ]);
    expect(sent.code, sent.err).toBe(0);
    expect(sent.json()).toMatchObject({
      message: { from: "operator", fromName: "the operator", text: "Where do we stand?\nKeep it short." },
      wakes: [ceoId],
    });
    const shown = await runCli(["chat", "show", "--data", dir]);
    expect(shown.out).toMatch(
      /^\[\d{4}-\d\d-\d\d \d\d:\d\d\] You:\n {4}Where do we stand\?\n {4}Keep it short\.\n$/,
    );
    expect((await runCli(["chat", "show", "--data", dir, "--json"])).json().items).toHaveLength(1);

    const run = await runCli(["run", "--until-idle", "--data", dir, "--json"]);
    expect(run.code, run.err).toBe(0);
    const store = await openStore({ path: join(dir, "cadre.db") });
    try {
      const runs = await store.listRuns({ agentId: ceoId });
      expect(runs.at(-1)?.trigger).toBe("operator_message");
      expect(await store.listWakeRequests({ agentId: ceoId, status: "pending" })).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("follow prints the thread, then each new message as it arrives, until Ctrl-C", async () => {
    expect((await runCli(["demo", "--data", dir, "--json", "--seed", "5"])).code).toBe(0);
    expect((await runCli(["chat", "send", "First.", "--data", dir])).code).toBe(0);
    const follow = startCli(["chat", "follow", "--data", dir, "--json"], cliEnv());
    expect(await follow.untilLines(1)).toBe(true);
    expect((await runCli(["chat", "send", "Second.", "--data", dir])).code).toBe(0);
    expect(await follow.untilLines(2)).toBe(true);
    follow.child.kill("SIGINT");
    const exited = await follow.exited;
    expect(exited.code, exited.stderr).toBe(0);
    expect(
      exited.stdout
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l).text),
    ).toEqual(["First.", "Second."]);
  });
});

describe("cadre chat --server", () => {
  let server: RunningServer;
  afterEach(async () => server?.close());

  it("posts through the API, which wakes the CEO at once; show reads the same thread", async () => {
    const store = await openStore({ memory: true });
    server = await startServer({ store, port: 0, env: OFFLINE_ENV, log: () => {} });
    try {
      const env = { ...OFFLINE_ENV, CADRE_TOKEN: server.operatorToken };
      const created = await runCli(
        ["company", "create", "--name", "Acme", "--server", server.url, "--json"],
        env,
      );
      expect(created.code, created.err).toBe(0);
      const sent = await runCli(["chat", "send", "Hello CEO.", "--server", server.url, "--json"], env);
      expect(sent.code, sent.err).toBe(0);
      const ceoId = sent.json().wakes[0] as string;
      const bad = await runCli(["chat", "send", "", "--server", server.url], env);
      expect([bad.code, bad.err.trim().split("\n").length]).toEqual([2, 1]);
      await expect
        .poll(async () => (await store.listRuns({ agentId: ceoId })).map((r) => r.trigger), {
          timeout: 20_000,
        })
        .toContain("operator_message");
      // The server's CEO answers in the thread; show reads the message, then the answer.
      const shown = async () =>
        (await runCli(["chat", "show", "--server", server.url, "--json"], env)).json().items as Array<{
          from: string;
          text: string;
        }>;
      await expect.poll(async () => (await shown()).length, { timeout: 20_000 }).toBe(2);
      const [mine, answer] = await shown();
      expect([mine!.from, mine!.text]).toEqual(["operator", "Hello CEO."]);
      expect([answer!.from, answer!.text.split("\n")[0]]).toEqual([ceoId, "You wrote: “Hello CEO.”"]);
    } finally {
      await server.close();
      await store.close();
    }
  });
});
