import { main } from "./main.js";
import { dropOutputOnClosedPipes, processIO } from "./io.js";

// A closed pipe (`cadre demo … | head`) drops the rest of the output; the command goes on to its end.
dropOutputOnClosedPipes();

process.exitCode = await main(process.argv.slice(2), processIO);
