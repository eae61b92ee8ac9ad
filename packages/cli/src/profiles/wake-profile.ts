// A prompt profile whose CEO acts over HTTP (C4-7, ProfileDriver.needsApi: the legacy profile's
// `node -e` fetch POSTs) needs a running API. A local `cadre wake` / `cadre demo` with such a
// profile serves the API on a free loopback port for the length of the wake, over the same store,
// with a throwaway operator token.
import { profileDriver } from "@cadre/company";
import { PROMPT_PROFILES, type PromptProfile } from "@cadre/model";
import type { Store } from "@cadre/store";
import { type CliIO, UsageError } from "../io.js";

export function parseProfile(command: string, value: string | undefined): PromptProfile | undefined {
  if (value === undefined) return undefined;
  if (!(PROMPT_PROFILES as readonly string[]).includes(value))
    throw new UsageError(
      `${command}: --profile must be one of ${PROMPT_PROFILES.join(", ")} (got "${value}")`,
    );
  return value as PromptProfile;
}

/** Runs `wake` with the profile's options: for a profile that needs an API, inside a loopback server's lifetime. */
export async function withProfile<T>(
  input: {
    store: Store;
    dataDir: string;
    io: CliIO;
    agentId: string;
    profile: PromptProfile | undefined;
    /** Where the line saying which API serves the wake goes (the human stream). */
    notice: (line: string) => void;
  },
  wake: (options: { profile?: PromptProfile; apiUrl?: string }) => Promise<T>,
): Promise<T> {
  const { store, io } = input;
  const agent = await store.getAgent(input.agentId);
  const company = agent && (await store.getCompany(agent.companyId));
  const effective = input.profile ?? (agent?.isCeo ? company?.settings.profile : undefined) ?? "semantic";
  if (!profileDriver(effective).needsApi) return wake(input.profile ? { profile: input.profile } : {});
  // The server (Hono, the routes, the cluster queue) loads only for a profile that needs an API:
  // every other command that passes through here would pay for it at start.
  const { startServer } = await import("@cadre/server");
  const server = await startServer({
    store,
    port: 0,
    dataDir: input.dataDir,
    env: io.env,
    log: (line) => io.err(`${line}\n`),
  });
  input.notice(`${effective} profile: the API for this wake is served at ${server.url}`);
  try {
    return await wake({ profile: effective, apiUrl: server.url });
  } finally {
    await server.close();
  }
}
