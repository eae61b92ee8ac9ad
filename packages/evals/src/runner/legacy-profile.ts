// The legacy profile's driver: per sample, the real HTTP server on a free loopback port over the
// sample's own store, and a scratch data folder for the bash tool's run folders. The CEO's
// `node -e` fetch POSTs really cross HTTP; their records say via "http".
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { offlineCeoScript } from "@cadre/company";
import { startServer } from "@cadre/server";
import type { ProfileDriver } from "./profiles.js";

export const legacyProfile: ProfileDriver = {
  name: "legacy",
  // The offline CEO plays the legacy profile itself when it is offered bash and no company tools.
  offlineScript: offlineCeoScript,
  async open({ store, env }) {
    const dataDir = await mkdtemp(join(tmpdir(), "cadre-eval-legacy-"));
    try {
      const server = await startServer({ store, port: 0, env, dataDir, log: () => {} });
      return {
        wake: { profile: "legacy", apiUrl: server.url, dataDir },
        close: async () => {
          await server.close();
          await rm(dataDir, { recursive: true, force: true });
        },
      };
    } catch (error) {
      await rm(dataDir, { recursive: true, force: true });
      throw error;
    }
  },
};
