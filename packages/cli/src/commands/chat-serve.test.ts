// `cadre chat` against a real `cadre serve` (the built bin, its own process): written locally on
// the served data directory, the message is picked up by the server's due-work pass, which wakes
// the CEO; written with --server, the CEO is woken at once. Either way the CEO's answer arrives in
// the thread, `follow --server` prints each message as it arrives, and both ways read one thread.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { runCli } from "../testing/run-cli.js";
import { cliEnv, type Running, startCli } from "../testing/spawn-cli.js";

let dir: string;
let serve: Running | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), "cadre-chat-serve-"));
});
afterEach(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  await rm(dir, { recursive: true, force: true });
});

/** `cadre serve` on the data directory: its URL and operator token, once it is listening. */
async function startServe(): Promise<{ url: string; token: string }> {
  serve = startCli(["serve", "--data", dir, "--port", "0"], cliEnv());
  const value = (prefix: string) =>
    serve!
      .output()
      .split("\n")
      .find((l) => l.startsWith(prefix))
      ?.slice(prefix.length)
      .trim();
  await expect
    .poll(() => [value("listening on "), value("operator token: ")].every(Boolean) || serve!.errors(), {
      timeout: 30_000,
    })
    .toBe(true);
  return { url: value("listening on ")!, token: value("operator token: ")! };
}

interface Shown {
  from: string;
  text: string;
}

describe("cadre chat with a running cadre serve", () => {
  it("locally and with --server: the CEO answers each message, follow prints them, one thread", async () => {
    const { url, token } = await startServe();
    const env = cliEnv({ CADRE_TOKEN: token });
    const created = await runCli(["company", "create", "--name", "Acme", "--server", url, "--json"], env);
    expect(created.code, created.err).toBe(0);

    // Locally, on the served data directory: the server's due-work pass wakes the CEO for it.
    const local = await runCli(["chat", "send", "Local hello.", "--data", dir, "--json"], cliEnv());
    expect(local.code, local.err).toBe(0);
    const ceoId = local.json().wakes[0] as string;
    const shownLocally = async () =>
      (await runCli(["chat", "show", "--data", dir, "--json"], cliEnv())).json().items as Shown[];
    await expect.poll(async () => (await shownLocally()).length, { timeout: 60_000, interval: 500 }).toBe(2);
    const [mine, answer] = await shownLocally();
    expect([mine!.from, mine!.text]).toEqual(["operator", "Local hello."]);
    expect([answer!.from, answer!.text.split("\n")[0]]).toEqual([ceoId, "You wrote: “Local hello.”"]);

    // Through the API while follow watches: the message and the CEO's answer are printed as they come.
    const follow = startCli(["chat", "follow", "--server", url, "--json"], env);
    try {
      expect(await follow.untilLines(2)).toBe(true);
      const sent = await runCli(["chat", "send", "Over the API.", "--server", url, "--json"], env);
      expect(sent.code, sent.err).toBe(0);
      expect(sent.json().wakes).toEqual([ceoId]);
      expect(await follow.untilLines(4)).toBe(true);
    } finally {
      follow.child.kill("SIGINT");
    }
    const exited = await follow.exited;
    expect(exited.code, exited.stderr).toBe(0);
    const followed = exited.stdout
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Shown);
    expect(followed.map((m) => [m.from, m.text.split("\n")[0]])).toEqual([
      ["operator", "Local hello."],
      [ceoId, "You wrote: “Local hello.”"],
      ["operator", "Over the API."],
      [ceoId, "You wrote: “Over the API.”"],
    ]);
    // The local store reads the same thread the server wrote.
    expect((await shownLocally()).map((m) => m.text)).toEqual(followed.map((m) => m.text));
    // Two CEO runs and a due-work pass on a shared machine.
  }, 150_000);
});
