// `@cadre/core/bench`: core's benchmarks, for the CLI's bench runner (`npm run bench`). Kept off the
// main entry: they read fixtures from disk and load the vendor SDKs (devDependencies) to compare with.
export { benchTranslators, type BenchResult } from "./translators.js";
export { bareLoopToFirstCall, type BareLoopInput } from "./wake-loop.js";
export { presetAppendTurns, type PresetTurnsInput } from "./claude-code-preset.js";
