// Builds the operator dashboard into dist/, which `cadre serve` serves at `/`. Preact's JSX is
// compiled by Vite's own transformer (oxc), so no framework plugin is needed.
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";

export default defineConfig({
  root: fileURLToPath(new URL(".", import.meta.url)),
  base: "./",
  oxc: { jsx: { runtime: "automatic", importSource: "preact" } },
  build: {
    outDir: "dist",
    emptyOutDir: true,
    target: "es2022",
    // The budget is 200 KB gzipped for the first page; warn well before it.
    chunkSizeWarningLimit: 300,
  },
});
