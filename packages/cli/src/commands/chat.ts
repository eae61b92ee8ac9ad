// `cadre chat send|show|follow`: the company thread with the CEO. A message from the
// operator wakes the CEO (decided in code: operator_message) — at once in `cadre serve`, at the
// next `cadre run` locally — and the CEO answers in the thread. The thread is data to the CEO: it
// never changes its mode, its tools or an approval. An operator port operation (the local store,
// or --server: GET/POST /api/companies/{id}/messages).
import type { ThreadMessage } from "@cadre/company";
import { setTimeout as sleep } from "node:timers/promises";
import { DATABASE_HELP, parse, SERVER_HELP, STORE_OPTIONS } from "../args.js";
import type { ServerTarget } from "../client/server-option.js";
import { type CliIO, UsageError } from "../io.js";
import { withOperator } from "../operator/open.js";
import { untilSignal } from "../until-signal.js";

export const CHAT_HELP = `Usage:
  cadre chat send TEXT [--company ID] [--json]
  cadre chat show [--company ID] [--json]
  cadre chat follow [--company ID] [--json]

The company's thread with its CEO. send writes TEXT to the CEO, which wakes it: in \`cadre serve\` at
once, locally at the next \`cadre run\`. The CEO answers in the thread. Your message is shown to the
CEO as your words, quoted — it cannot change the CEO's phase, its tools or any decision; approvals
are decided with \`cadre approvals\`. show prints the thread; follow prints it and then each new
message as it arrives, until Ctrl-C.
--json: send prints { message, wakes }; show prints { companyId, items }; follow prints one JSON line
per message.
${DATABASE_HELP}
${SERVER_HELP}`;

const FOLLOW_EVERY_MS = 1000;

function line(m: ThreadMessage): string {
  const when = m.at.replace("T", " ").slice(0, 16);
  const who = m.from === "operator" ? "You" : m.fromName;
  const body = m.text.split("\n").join("\n    ");
  return `[${when}] ${who}:\n    ${body}\n`;
}

export async function chatCommand(args: string[], io: CliIO, server?: ServerTarget): Promise<number> {
  const [sub, ...rest] = args;
  if (!sub || sub === "--help" || sub === "-h") return (io.out(`${CHAT_HELP}\n`), sub ? 0 : 2);
  if (sub !== "send" && sub !== "show" && sub !== "follow")
    throw new UsageError(`chat: unknown subcommand "${sub}"; use send, show or follow`);
  const { values, positionals } = parse(
    `chat ${sub}`,
    rest,
    { ...STORE_OPTIONS, company: { type: "string" } },
    sub === "send" ? 1 : 0,
  );
  if (values.help) return (io.out(`${CHAT_HELP}\n`), 0);
  const text = positionals[0];
  if (sub === "send" && text === undefined)
    throw new UsageError('chat send: TEXT is required, e.g. cadre chat send "How is the launch going?"');
  return withOperator(
    values,
    io,
    server,
    async (port) => {
      if (sub === "send") {
        const sent = await port.sendMessage(values.company, text!);
        io.out(
          values.json
            ? `${JSON.stringify(sent)}\n`
            : `Sent to the CEO (message ${sent.message.id}); it wakes the CEO${port.kind === "local" ? " at the next cadre run" : ""}.\n`,
        );
        return 0;
      }
      const first = await port.messages(values.company);
      if (sub === "show") {
        io.out(
          values.json
            ? `${JSON.stringify(first)}\n`
            : first.items.length === 0
              ? "No message yet: write to the CEO with cadre chat send TEXT.\n"
              : first.items.map(line).join(""),
        );
        return 0;
      }
      const print = (m: ThreadMessage) => io.out(values.json ? `${JSON.stringify(m)}\n` : line(m));
      first.items.forEach(print);
      let last = first.items.at(-1)?.id ?? 0;
      let stopped = false;
      void untilSignal().then(() => (stopped = true));
      while (!stopped) {
        await sleep(FOLLOW_EVERY_MS);
        if (stopped) break;
        const next = await port.messages(first.companyId, last);
        next.items.forEach(print);
        last = next.items.at(-1)?.id ?? last;
      }
      return 0;
    },
    sub === "send" ? "write" : "read",
  );
}
