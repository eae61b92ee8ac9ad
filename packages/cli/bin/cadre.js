#!/usr/bin/env node
// Thin launcher kept in plain JS so npm can link the bin before the build has run. CommonJS (see
// bin/package.json), like the loader and the bundle it starts: a command that imports no ES module
// never starts Node's ES module loader. The bundle (dist/bundle/, built by bundle.mjs) runs through
// V8's code cache (src/launch/bundle-loader.cts).
let loader;
try {
  loader = require("../dist/launch/bundle-loader.cjs");
} catch (error) {
  if (error && error.code === "MODULE_NOT_FOUND" && String(error.message).includes("bundle-loader")) {
    console.error(
      "cadre: the CLI is not built yet. Run `npm install` (or `npm run build`) in the Cadre checkout first.",
    );
    process.exit(1);
  }
  throw error;
}
loader.startBundle();
