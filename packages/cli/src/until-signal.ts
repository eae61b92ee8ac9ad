// Long-running commands (serve, worker, standin) run until SIGINT or SIGTERM, then shut down
// cleanly. The handler stays installed until the process ends: a library loaded later (the Pi
// coding agent's SDK pulls in signal-exit) re-raises a signal when its own handlers are the only
// ones left, so removing ours inside the handler made a SIGTERM kill the process in the middle of
// its graceful shutdown. A second signal during the shutdown ends the process at once (130 / 143).
import { signalExitCode } from "./signals.js";

export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    let received: NodeJS.Signals | undefined;
    const on = (signal: NodeJS.Signals) => {
      if (received !== undefined) process.exit(signalExitCode(signal === "SIGINT" ? "SIGINT" : "SIGTERM"));
      received = signal;
      resolve(signal);
    };
    process.on("SIGINT", on);
    process.on("SIGTERM", on);
  });
}
