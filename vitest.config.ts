import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const src = (path: string) => fileURLToPath(new URL(`./packages/${path}`, import.meta.url));
/** A package entry (`@cadre/NAME` or a subpath of it) resolved to its TypeScript source. */
const entry = (find: RegExp, path: string) => ({ find, replacement: src(path) });

// Tests run on the TypeScript sources; the CLI end-to-end tests run the built bin. Aliases match by
// prefix, so each is an exact-match pattern and the subpaths come before their package.
export default defineConfig({
  resolve: {
    alias: [
      entry(/^@cadre\/model\/testing$/, "model/src/testing/index.ts"),
      entry(/^@cadre\/model$/, "model/src/index.ts"),
      entry(/^@cadre\/core\/testing$/, "core/src/testing/index.ts"),
      entry(/^@cadre\/core\/sessions$/, "core/src/sessions.ts"),
      entry(/^@cadre\/core\/offline$/, "core/src/offline/index.ts"),
      entry(/^@cadre\/core\/bench$/, "core/src/bench/index.ts"),
      entry(/^@cadre\/core$/, "core/src/index.ts"),
      entry(/^@cadre\/store$/, "store/src/index.ts"),
      entry(/^@cadre\/company$/, "company/src/index.ts"),
      entry(/^@cadre\/cli$/, "cli/src/index.ts"),
      entry(/^@cadre\/server\/client$/, "server/src/api/client.ts"),
      entry(/^@cadre\/server\/views$/, "server/src/routes/views.ts"),
      entry(/^@cadre\/server$/, "server/src/index.ts"),
      entry(/^@cadre\/evals\/report-schema$/, "evals/src/report/schema.ts"),
      entry(/^@cadre\/evals$/, "evals/src/index.ts"),
      entry(/^@cadre\/standin$/, "standin/src/index.ts"),
    ],
  },
  test: {
    include: ["packages/*/src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // expect.poll waits for what a user would see; its 1 s default fails on a loaded 2-core machine.
    expect: { poll: { timeout: 15_000 } },
    // One PostgreSQL server for the run: CADRE_TEST_DATABASE_URL, else a throwaway local one.
    globalSetup: ["packages/store/src/testing/postgres-global-setup.ts"],
    // Fails any test that does filesystem or network work inside a store transaction.
    setupFiles: ["packages/store/src/testing/no-io-in-transactions.ts"],
    pool: "forks",
  },
});
