// Which adapter of the operator port a command talks to: a running API when `--server URL` was
// given (main takes it out of the arguments), else the store of the data directory or database.
import type { ServerTarget } from "../client/server-option.js";
import { type DataAccess, openData, type StoreArgs } from "../context.js";
import { type CliIO, UsageError } from "../io.js";
import { HttpOperator } from "./http.js";
import { LocalOperator } from "./local.js";
import type { OperatorPort } from "./port.js";

/**
 * `access` says what the operation does to the local store (context.ts, DataAccess): "read" opens
 * it read-only, "write" needs existing data, "create" may make a new data directory.
 */
export async function openOperator(
  values: StoreArgs,
  io: CliIO,
  server: ServerTarget | undefined,
  access: DataAccess = "write",
): Promise<OperatorPort> {
  if (server) {
    if (values.data !== undefined)
      throw new UsageError("--data has no meaning with --server (the server keeps its own data)");
    if (values.database !== undefined)
      throw new UsageError("--database has no meaning with --server (the server keeps its own store)");
    return new HttpOperator(server);
  }
  return new LocalOperator(await openData(values, io.env, access), io);
}

/** Runs `use` with the port open, and closes it whatever happens. */
export async function withOperator<T>(
  values: StoreArgs,
  io: CliIO,
  server: ServerTarget | undefined,
  use: (port: OperatorPort) => Promise<T>,
  access: DataAccess = "write",
): Promise<T> {
  const port = await openOperator(values, io, server, access);
  try {
    return await use(port);
  } finally {
    await port.close();
  }
}
