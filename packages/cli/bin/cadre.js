#!/usr/bin/env node
// Thin launcher kept in plain JS so npm can link the bin before the TypeScript build has run.
import("../dist/bin.js").catch((error) => {
  if (error && error.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist/bin.js")) {
    console.error(
      "cadre: the CLI is not built yet. Run `npm install` (or `npm run build`) in the Cadre checkout first.",
    );
    process.exit(1);
  }
  throw error;
});
