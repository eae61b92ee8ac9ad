import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { openStore } from "@cadre/store";
const { wakeStatements } = await import(process.cwd() + "/packages/cli/dist/bench/wake-statements.js");
const dir = await mkdtemp(join(tmpdir(), "cnt-"));
const store = await openStore({ path: join(dir, "c.db") });
for (let i = 0; i < 2; i++) console.log(await wakeStatements(store, dir, i));
await store.close();
