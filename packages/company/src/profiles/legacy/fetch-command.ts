// The shell command the old design's CEO wrote to call the API: `node -e` with a fetch POST. The
// offline legacy CEO writes it, and reads its own commands back from the transcript the way a
// model reads what it did.

/** Single-quotes text for bash: nothing inside is expanded. */
export function shellQuote(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function shellUnquote(quoted: string): string | undefined {
  if (!quoted.startsWith("'") || !quoted.endsWith("'") || quoted.length < 2) return undefined;
  return quoted.slice(1, -1).replace(/'\\''/g, "'");
}

const TAIL = `)}).then(async (r) => { console.log(r.status, await r.text()); if (!r.ok) process.exitCode = 1; })`;

export function fetchPostCommand(url: string, body: Record<string, unknown>): string {
  const js =
    `fetch(${JSON.stringify(url)}, {method: "POST", headers: {"Content-Type": "application/json", "Authorization": "Bearer " + process.env.CADRE_AGENT_TOKEN}, ` +
    `body: JSON.stringify(${JSON.stringify(body)}${TAIL}`;
  return `node -e ${shellQuote(js)}`;
}

/** The URL and body of a command written by fetchPostCommand; undefined for any other command. */
export function readFetchPostCommand(
  command: string,
): { url: string; body: Record<string, unknown> } | undefined {
  if (!command.startsWith("node -e ")) return undefined;
  const js = shellUnquote(command.slice("node -e ".length));
  if (js === undefined) return undefined;
  const url = /^fetch\(("(?:[^"\\]|\\.)*")/.exec(js);
  const bodyAt = js.indexOf("body: JSON.stringify(");
  const tailAt = js.lastIndexOf(TAIL);
  if (!url || bodyAt < 0 || tailAt < bodyAt) return undefined;
  try {
    const body: unknown = JSON.parse(js.slice(bodyAt + "body: JSON.stringify(".length, tailAt));
    if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
    return { url: JSON.parse(url[1] as string) as string, body: body as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

/** What the API answered, as printed by the command: the status, then the response text. */
export function readFetchOutput(output: string): { status: number; text: string } | undefined {
  const m = /^(\d{3}) (.*)$/m.exec(output);
  return m ? { status: Number(m[1]), text: m[2] as string } : undefined;
}
