// The real harness binaries against the stand-in, offline: Claude Code (shipped in
// @anthropic-ai/claude-agent-sdk's platform package) over Anthropic Messages and Codex (in
// @openai/codex's) over Responses with a custom model provider. Each runs one tool round trip of
// its own built-in tools and reports usage that must add up to what the stand-in sent. Nothing
// leaves loopback: temp homes, the vendors' switches for non-essential traffic, loopback base URLs.
// How to configure them came from the issue-22 research (/tmp/r22/FINDINGS.md); wiring Cadre's
// harness adapters to this server is that work, not this file's.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { promisify } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { reply, scripted, startStandin, type StandinServer, type UsageCounts } from "./index.js";

const run = promisify(execFile);
const resolve = createRequire(import.meta.url).resolve;

function found(f: () => string): string | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}
const linuxX64 = process.platform === "linux" && process.arch === "x64";
const CLAUDE = linuxX64
  ? found(() => join(dirname(resolve("@anthropic-ai/claude-agent-sdk-linux-x64/package.json")), "claude"))
  : undefined;
const CODEX = linuxX64
  ? found(() =>
      join(
        dirname(resolve("@openai/codex-linux-x64/package.json")),
        "vendor/x86_64-unknown-linux-musl/bin/codex",
      ),
    )
  : undefined;

let server: StandinServer;
let dir: string;
afterEach(async () => {
  await server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** What the stand-in sent, summed over every model call. */
function sent(): UsageCounts {
  const total: UsageCounts = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, reasoning: 0 };
  for (const call of server.modelCalls())
    for (const k of Object.keys(total) as Array<keyof UsageCounts>)
      total[k] += call.answered?.usage?.[k] ?? 0;
  return total;
}
const lines = (stdout: string) =>
  stdout
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l));

describe("real harness binaries against the stand-in", () => {
  it.skipIf(!CLAUDE)(
    "Claude Code reads a file through its Read tool and reports the stand-in's usage",
    async () => {
      dir = await mkdtemp(join(tmpdir(), "standin-claude-"));
      const note = join(dir, "note.txt");
      await writeFile(note, "The secret word is heliotrope.\n");
      server = await startStandin({
        policy: scripted([
          reply.toolCall("Read", { file_path: note }, "Reading the note."),
          (request) => {
            const result = request.messages.at(-1)?.content.find((b) => b.type === "tool_result");
            return reply.text(
              `The note says: ${result?.type === "tool_result" ? result.content : "nothing"}`,
            );
          },
        ]),
      });
      const env = {
        PATH: process.env["PATH"] ?? "",
        HOME: dir,
        CLAUDE_CONFIG_DIR: join(dir, ".claude"),
        ANTHROPIC_BASE_URL: server.anthropicBaseUrl,
        ANTHROPIC_API_KEY: "sk-ant-standin-not-a-key",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
        DISABLE_AUTOUPDATER: "1",
        CLAUDE_CODE_DISABLE_AUTO_MEMORY: "1",
      };
      const args = ["-p", "What does note.txt say?", "--output-format", "stream-json", "--verbose"];
      const policy = ["--tools", "Read", "--allowedTools", "Read", "--permission-mode", "dontAsk"];
      const { stdout } = await run(CLAUDE!, [...args, ...policy, "--model", "claude-sonnet-4-5"], {
        env,
        cwd: dir,
        timeout: 60_000,
      });
      const out = lines(stdout);
      expect(out.find((l) => l.type === "system" && l.subtype === "init").tools).toEqual(["Read"]);
      const result = out.find((l) => l.type === "result");
      expect(result).toMatchObject({ subtype: "success", is_error: false });
      expect(result.result).toMatch(/^The note says: .*The secret word is heliotrope\./s);
      expect(server.toolsOffered(0)).toEqual(["Read"]);
      expect(server.modelCalls().map((c) => c.request.headers["user-agent"])).toEqual([
        expect.stringMatching(/^claude-cli\//),
        expect.stringMatching(/^claude-cli\//),
      ]);
      const usage = sent();
      expect(result.usage).toMatchObject({
        input_tokens: usage.input,
        cache_read_input_tokens: usage.cacheRead,
        cache_creation_input_tokens: usage.cacheWrite,
        output_tokens: usage.output,
      });
      expect(usage.cacheRead).toBeGreaterThan(0);
    },
  );

  it.skipIf(!CODEX)(
    "Codex runs a function call it got over Responses and reports the stand-in's usage",
    async () => {
      dir = await mkdtemp(join(tmpdir(), "standin-codex-"));
      server = await startStandin({
        policy: scripted([
          reply.toolCall("get_goal", {}, "Checking the goal."),
          reply.text("No goal is set."),
        ]),
      });
      const provider = [
        `model_provider="standin"`,
        `model_providers.standin.name="Stand-in"`,
        `model_providers.standin.base_url="${server.openaiBaseUrl}"`,
        `model_providers.standin.wire_api="responses"`,
        `model_providers.standin.env_key="STANDIN_API_KEY"`,
        "analytics.enabled=false",
        "features.plugins=false",
        `web_search="disabled"`,
      ].flatMap((c) => ["-c", c]);
      const env = {
        PATH: process.env["PATH"] ?? "",
        HOME: dir,
        CODEX_HOME: dir,
        STANDIN_API_KEY: "sk-standin",
      };
      const args = [
        "exec",
        "--experimental-json",
        ...provider,
        "--model",
        "standin-model",
        "--sandbox",
        "read-only",
      ];
      const codex = run(CODEX!, [...args, "--skip-git-repo-check", "Is there a goal?"], {
        env,
        cwd: dir,
        timeout: 60_000,
      });
      codex.child.stdin?.end(); // Codex reads more prompt from a piped stdin until it closes.
      const { stdout } = await codex;
      const out = lines(stdout);
      const messages = out.filter((l) => l.item?.type === "agent_message").map((l) => l.item.text);
      expect(messages).toEqual(["Checking the goal.", "No goal is set."]);
      const calls = server.modelCalls();
      expect(calls.map((c) => c.request.headers["authorization"])).toEqual([
        "Bearer sk-standin",
        "Bearer sk-standin",
      ]);
      const output = calls[1]!.request.messages.at(-1)!.content[0]!;
      expect(output).toMatchObject({ type: "tool_result", content: expect.stringContaining('"goal":null') });
      const usage = sent();
      expect(out.find((l) => l.type === "turn.completed").usage).toMatchObject({
        input_tokens: usage.input + usage.cacheRead,
        cached_input_tokens: usage.cacheRead,
        output_tokens: usage.output,
      });
    },
  );
});
