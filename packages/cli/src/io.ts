// The CLI's I/O seam: commands write through this, so tests run them in-process.
export interface CliIO {
  out(text: string): void;
  err(text: string): void;
  env: NodeJS.ProcessEnv;
  stdin: AsyncIterable<Uint8Array | string>;
}

export const processIO: CliIO = {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
  env: process.env,
  stdin: process.stdin,
};

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
