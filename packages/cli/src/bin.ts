import { main } from "./main.js";
import { processIO } from "./io.js";

// A closed pipe (`cadre translate … | head`) ends the command quietly, as Unix tools do.
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code === "EPIPE") process.exit(0);
  throw error;
});

process.exitCode = await main(process.argv.slice(2), processIO);
