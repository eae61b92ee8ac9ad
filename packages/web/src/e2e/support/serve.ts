// A real `cadre serve` (the built bin) on a free loopback port over a fresh data directory, with no
// provider key in its environment: new companies run on the offline connector. It serves the
// dashboard's build, which must be newer than the dashboard's sources (run `npm run build`).
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtemp, readdir, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../../cli/bin/cadre.js", import.meta.url));
const WEB = fileURLToPath(new URL("../../../", import.meta.url));

export interface Served {
  url: string;
  token: string;
  /** The `dashboard: …/#token=…` link it printed. */
  signInLink: string;
  dataDir: string;
  stop(): Promise<void>;
}

async function newest(dir: string): Promise<number> {
  let latest = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || /\.test\.ts$/.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    // The tests and their fixtures are not part of the build.
    if (path.includes(join("src", "e2e")) || path.includes("__fixtures__")) continue;
    latest = Math.max(latest, (await stat(path)).mtimeMs);
  }
  return latest;
}

/** Fails with the command to run when the build is missing or older than the sources. */
export async function assertDashboardBuilt(): Promise<void> {
  let built: number;
  try {
    built = (await stat(join(WEB, "dist", "index.html"))).mtimeMs;
  } catch {
    throw new Error(
      "the dashboard is not built (packages/web/dist/index.html is missing): run npm run build",
    );
  }
  const sources = Math.max(await newest(join(WEB, "src")), (await stat(join(WEB, "index.html"))).mtimeMs);
  if (sources > built) throw new Error("the dashboard build is older than its sources: run npm run build");
}

/** Starts `cadre serve`; `dataDir` reuses a prepared data directory (removed at stop either way). */
export async function startCadreServe(options: { dataDir?: string } = {}): Promise<Served> {
  await assertDashboardBuilt();
  const dataDir = options.dataDir ?? (await mkdtemp(join(tmpdir(), "cadre-web-e2e-")));
  const env: NodeJS.ProcessEnv = { ...process.env, ANTHROPIC_API_KEY: "", OPENAI_API_KEY: "" };
  delete env["CADRE_OPERATOR_TOKEN"];
  delete env["CADRE_DATABASE_URL"];
  delete env["CADRE_TOKEN"];
  const child: ChildProcess = spawn(process.execPath, [BIN, "serve", "--data", dataDir, "--port", "0"], {
    env,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  let stderr = "";
  child.stderr!.on("data", (d: Buffer) => (stderr += d.toString()));
  const lines = await new Promise<string[]>((resolve, reject) => {
    let out = "";
    child.stdout!.on("data", (d: Buffer) => {
      out += d.toString();
      if (/^dashboard: .*$/m.test(out)) resolve(out.split("\n"));
    });
    void exited.then((code) =>
      reject(new Error(`cadre serve exited (${code}) before it was ready: ${stderr}`)),
    );
  });
  const value = (prefix: string) => {
    const line = lines.find((l) => l.startsWith(prefix));
    if (!line) throw new Error(`cadre serve did not print "${prefix}…": ${lines.join("\n")}`);
    return line.slice(prefix.length).trim();
  };
  return {
    url: value("listening on "),
    token: value("operator token: "),
    signInLink: value("dashboard: "),
    dataDir,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** An API call to the served instance as its operator (or with the token given): status and JSON body. */
export async function apiCall<T = any>(
  served: Served,
  method: string,
  path: string,
  body?: unknown,
  token = served.token,
): Promise<{ status: number; body: T }> {
  const r = await fetch(`${served.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: r.status, body: (await r.json()) as T };
}

/** The same call, which must succeed: its JSON body, or an error naming the call and the answer. */
export async function apiOk<T = any>(
  served: Served,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const r = await apiCall<T>(served, method, path, body);
  if (r.status < 200 || r.status > 299)
    throw new Error(`${method} ${path}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}
