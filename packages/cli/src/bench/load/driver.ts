// The bench process's side of the load generator: forks generator.ts once and sends it one load
// at a time, so the requests are made in another process than the one serving them.
import { type ChildProcess, fork } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { LoadResult, LoadSpec } from "./protocol.js";

const GENERATOR = fileURLToPath(new URL("./generator.js", import.meta.url));

export interface LoadDriver {
  run(spec: LoadSpec): Promise<LoadResult>;
  close(): Promise<void>;
}

export async function startLoadDriver(): Promise<LoadDriver> {
  const child: ChildProcess = fork(GENERATOR, [], { stdio: ["ignore", "ignore", "inherit", "ipc"] });
  await new Promise<void>((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  let queue: Promise<unknown> = Promise.resolve();
  const once = (spec: LoadSpec) =>
    new Promise<LoadResult>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`the load generator exited (${code})`));
      child.once("exit", onExit);
      child.once("message", (m: { ok: boolean; result?: LoadResult; error?: string }) => {
        child.off("exit", onExit);
        if (m.ok) resolve(m.result!);
        else reject(new Error(`load generator: ${m.error}`));
      });
      child.send(spec);
    });
  return {
    run(spec) {
      const result = queue.then(() => once(spec));
      queue = result.catch(() => {});
      return result;
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    },
  };
}
