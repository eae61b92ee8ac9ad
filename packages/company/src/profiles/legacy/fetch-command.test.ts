// The legacy CEO's node -e fetch command: what it writes is what it reads back, and bash runs it.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { fetchPostCommand, readFetchOutput, readFetchPostCommand, shellQuote } from "./fetch-command.js";
import { runBash } from "./bash-tool.js";

describe("fetch POST command", () => {
  it("reads back the URL and body it was written with, whatever the text holds", () => {
    fc.assert(
      fc.property(
        fc.webUrl(),
        fc.dictionary(
          fc.string(),
          fc.oneof(fc.string(), fc.integer(), fc.constant('it\'s }).then( "x" \\n')),
        ),
        (url, body) => {
          expect(readFetchPostCommand(fetchPostCommand(url, body))).toEqual({
            url,
            body: JSON.parse(JSON.stringify(body)),
          });
        },
      ),
    );
    expect(readFetchPostCommand("ls -la")).toBeUndefined();
    expect(readFetchPostCommand("node -e 'console.log(1)'")).toBeUndefined();
  });

  it("quotes for bash so that nothing in the text is expanded", async () => {
    const tricky = `it's $HOME \`whoami\` $(echo no) "q" \\ !`;
    const r = await runBash(`printf %s ${shellQuote(tricky)}`, { cwd: process.cwd(), env: {} });
    expect(r.stdout).toBe(tricky);
  });

  it("reads the status and text the command prints", () => {
    expect(readFetchOutput('201 {"id":"agt_1"}\n[exit code 0]')).toEqual({
      status: 201,
      text: '{"id":"agt_1"}',
    });
    expect(readFetchOutput("[stderr]\nfetch failed\n[exit code 1]")).toBeUndefined();
  });
});
