export { main, MAIN_HELP } from "./main.js";
export type { CliIO } from "./io.js";
