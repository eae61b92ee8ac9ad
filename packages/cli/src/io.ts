// The CLI's I/O seam: commands write through this, so tests run them in-process.
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  stdin: AsyncIterable<Uint8Array | string>;
}

/** Pipes whose reader went away (EPIPE): what would be written there is dropped. */
const closed = { stdout: false, stderr: false };

export const processIO: CliIO = {
  out: (text) => void (closed.stdout || process.stdout.write(text)),
  err: (text) => void (closed.stderr || process.stderr.write(text)),
  env: process.env,
  // Read on use: `process.stdin` loads Node's streams, which most commands never need.
  get stdin() {
    return process.stdin;
  },
};

/** Whether this process has started a wake (see markWaking). */
let woke = false;

/**
 * A wake starts in this process: from now on a closed stdout never ends the process early — the
 * command's own end decides its exit code (how the run ended), whenever the pipe closes.
 */
export function markWaking(): void {
  woke = true;
}

/**
 * A reader that closes its end of stdout (`cadre demo | head -8`) never abandons a run: from then
 * on the output is dropped and the command goes on to its end — the wake runs to its terminal event
 * with its usage recorded and its budget reservations settled — and exits with its own code (0: the
 * run ended done), saying once on stderr what happened. A command that has run no wake ends at
 * once, quietly, as Unix tools do (`cadre translate … | head`). Node ignores SIGPIPE, so a closed
 * pipe arrives as EPIPE on the next write. A closed stderr is dropped the same way.
 */
export function dropOutputOnClosedPipes(): void {
  process.stdout.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    if (!woke) process.exit(0);
    if (closed.stdout) return;
    closed.stdout = true;
    processIO.err(
      "cadre: stdout was closed by its reader; the rest of the output is dropped and the run goes on to its end (the exit code says how it ended)\n",
    );
  });
  process.stderr.on("error", (error: NodeJS.ErrnoException) => {
    if (error.code !== "EPIPE") throw error;
    closed.stderr = true;
  });
}

/** A command group called without its subcommand: bad usage, one line naming the subcommands. */
export function subcommandRequired(command: string, subcommands: readonly string[]): UsageError {
  return new UsageError(
    `${command}: a subcommand is required: ${subcommands.join(", ")} (see cadre ${command} --help)`,
  );
}

/** A usage error: exit 2 with the message (and the command's help hint) on stderr. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}
