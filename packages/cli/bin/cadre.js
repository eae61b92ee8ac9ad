#!/usr/bin/env node
// Thin launcher kept in plain JS so npm can link the bin before the build has run. It starts the
// bundle (dist/bundle/, built by bundle.mjs) through V8's code cache (dist/launch/bundle-loader.js).
import("../dist/launch/bundle-loader.js").then(
  ({ startBundle }) => startBundle(),
  (error) => {
    if (error && error.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("bundle-loader")) {
      console.error(
        "cadre: the CLI is not built yet. Run `npm install` (or `npm run build`) in the Cadre checkout first.",
      );
      process.exit(1);
    }
    throw error;
  },
);
