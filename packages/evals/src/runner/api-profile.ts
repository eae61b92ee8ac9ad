// A profile whose CEO acts over HTTP (ProfileDriver.needsApi: the legacy profile) gets, per sample,
// the real HTTP server on a free loopback port over the sample's own store, and a scratch data
// folder for its run folders. The CEO's `node -e` fetch POSTs really cross HTTP; their records say
// via "http".
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { PromptProfile } from "@cadre/model";
import type { Store } from "@cadre/store";
import { startServer } from "@cadre/server";
import type { ProfileSession } from "./profiles.js";

export async function openWithServer(
  profile: PromptProfile,
  { store, env }: { store: Store; env: NodeJS.ProcessEnv },
): Promise<ProfileSession> {
  const dataDir = await mkdtemp(join(tmpdir(), `cadre-eval-${profile}-`));
  try {
    const server = await startServer({ store, port: 0, env, dataDir, log: () => {} });
    return {
      wake: { profile, apiUrl: server.url, dataDir },
      close: async () => {
        await server.close();
        await rm(dataDir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dataDir, { recursive: true, force: true });
    throw error;
  }
}
