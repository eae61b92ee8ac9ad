// Vitest global setup: gives every test file one PostgreSQL URL through `inject("postgresUrl")`.
// CADRE_TEST_DATABASE_URL (as .ci/run sets it) wins; otherwise a throwaway server is started from
// the local binaries for this test run and stopped after it. Without either, the URL is empty and
// the PostgreSQL tests fail, saying how to get one: they never pass without a server.
import type { TestProject } from "vitest/node";
import { findPostgresBin, startThrowawayPostgres } from "../postgres-throwaway.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** Empty when no PostgreSQL server is available. */
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const given = process.env["CADRE_TEST_DATABASE_URL"];
  if (given) {
    project.provide("postgresUrl", given);
    return undefined;
  }
  if (!findPostgresBin()) {
    project.provide("postgresUrl", "");
    return undefined;
  }
  // Stopped by the teardown below, or by its watchdog if this process is killed before it.
  const server = await startThrowawayPostgres({ stopWhenGone: process.pid });
  project.provide("postgresUrl", server.url);
  return () => server.stop();
}
