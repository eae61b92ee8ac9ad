#!/usr/bin/env node
// Thin launcher kept in plain JS so npm can link the bin before the build has run. It starts the
// bundle (dist/bundle/, rolldown.config.mjs): a few files instead of the packages' ~1,300 modules.
import("../dist/bundle/cadre.js").catch((error) => {
  if (
    error &&
    error.code === "ERR_MODULE_NOT_FOUND" &&
    String(error.message).includes("dist/bundle/cadre.js")
  ) {
    console.error(
      "cadre: the CLI is not built yet. Run `npm install` (or `npm run build`) in the Cadre checkout first.",
    );
    process.exit(1);
  }
  throw error;
});
