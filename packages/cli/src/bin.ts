import { main } from "./main.js";
import { dropOutputOnClosedPipes, processIO } from "./io.js";

// A closed pipe (`cadre demo … | head`) drops the rest of the output; the command goes on to its end.
dropOutputOnClosedPipes();

// No top-level await: the bundle is CommonJS (see launch/bundle-loader.ts).
void main(process.argv.slice(2), processIO).then((code) => {
  process.exitCode = code;
});
