// SIGINT / SIGTERM while a command runs a wake: the first one cancels the run (it ends `cancelled`
// once, with its usage recorded) and the command exits 130 / 143 saying so; a second one exits at
// once (the run is then recovered as interrupted by the next command that opens the store).
import { type CliIO, markWaking } from "./io.js";

const EXIT: Record<"SIGINT" | "SIGTERM", number> = { SIGINT: 130, SIGTERM: 143 };

export interface SignalGuard {
  /** Aborted, with the reason "cancelled by SIGNAL", at the first signal. */
  signal: AbortSignal;
  /** The signal received, if any. */
  received(): "SIGINT" | "SIGTERM" | undefined;
  /** 130 after SIGINT, 143 after SIGTERM. */
  exitCode(): number | undefined;
  /** Stops listening (the process's default handling is back). */
  dispose(): void;
}

export function cancelOnSignals(io: Pick<CliIO, "err">): SignalGuard {
  const controller = new AbortController();
  // A wake is under way: a closed stdout drops its output rather than end the process (io.ts).
  markWaking();
  let received: "SIGINT" | "SIGTERM" | undefined;
  const on = (name: "SIGINT" | "SIGTERM") => () => {
    if (received !== undefined) {
      io.err(`cadre: ${name} again, exiting now; the run will be recovered as interrupted\n`);
      process.exit(EXIT[name]);
    }
    received = name;
    io.err(`cadre: ${name}, cancelling the run (again to exit at once)\n`);
    controller.abort(`cancelled by ${name}`);
  };
  const onInt = on("SIGINT");
  const onTerm = on("SIGTERM");
  process.on("SIGINT", onInt);
  process.on("SIGTERM", onTerm);
  return {
    signal: controller.signal,
    received: () => received,
    exitCode: () => (received ? EXIT[received] : undefined),
    dispose() {
      process.off("SIGINT", onInt);
      process.off("SIGTERM", onTerm);
    },
  };
}

export function signalExitCode(name: "SIGINT" | "SIGTERM"): number {
  return EXIT[name];
}
