// `--server URL` (with `--token TOKEN` or CADRE_TOKEN): the command talks to a running Cadre API
// instead of the local store. Taken out of the arguments here, before the command parses the rest.
import { UsageError } from "../io.js";

/** A running Cadre API and the token to call it with. */
export interface ServerTarget {
  url: string;
  token: string;
}

export interface ServerSplit {
  args: string[];
  target: ServerTarget | undefined;
}

function take(args: string[], name: string): { value: string | undefined; rest: string[] } {
  const rest: string[] = [];
  let value: string | undefined;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i] as string;
    if (arg === `--${name}`) {
      value = args[i + 1];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value`);
      i++;
    } else if (arg.startsWith(`--${name}=`)) {
      value = arg.slice(name.length + 3);
    } else {
      rest.push(arg);
    }
  }
  return { value, rest };
}

export function splitServerOption(args: string[], env: NodeJS.ProcessEnv): ServerSplit {
  const server = take(args, "server");
  if (server.value === undefined) return { args, target: undefined };
  const token = take(server.rest, "token");
  if (!/^https?:\/\/[^\s/]+(\/.*)?$/.test(server.value))
    throw new UsageError(
      `--server must be the API's http(s) URL, e.g. http://127.0.0.1:7420 (got "${server.value}")`,
    );
  const value = token.value ?? env["CADRE_TOKEN"];
  if (!value)
    throw new UsageError(
      "--server needs a token: pass --token TOKEN or set CADRE_TOKEN (the operator token `cadre serve` printed, or an agent key)",
    );
  return { args: token.rest, target: { url: server.value.replace(/\/+$/, ""), token: value } };
}
