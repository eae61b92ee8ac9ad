import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const pkg = (name: string) => fileURLToPath(new URL(`./packages/${name}/src/index.ts`, import.meta.url));

// Tests run on the TypeScript sources; the CLI end-to-end tests run the built bin.
export default defineConfig({
  resolve: {
    alias: {
      "@cadre/model": pkg("model"),
      "@cadre/core": pkg("core"),
      "@cadre/store": pkg("store"),
      "@cadre/company": pkg("company"),
      "@cadre/cli": pkg("cli"),
      "@cadre/server": pkg("server"),
      // A subpath before its package: aliases match by prefix, first match wins.
      "@cadre/evals/report-schema": fileURLToPath(
        new URL("./packages/evals/src/report/schema.ts", import.meta.url),
      ),
      "@cadre/evals": pkg("evals"),
    },
  },
  test: {
    include: ["packages/*/src/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // One PostgreSQL server for the run: CADRE_TEST_DATABASE_URL, else a throwaway local one.
    globalSetup: ["packages/store/src/testing/postgres-global-setup.ts"],
    pool: "forks",
  },
});
