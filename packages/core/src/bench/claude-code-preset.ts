// The "before" of the Claude Code prompt benchmark: what Claude Code sends when it is
// handed Cadre's prompt the way its SDK suggests by default, appended to its own coding preset.
// The adapter now hands Cadre's prompt as the whole system prompt; the CLI bench compares the two
// on the same stand-in, the bytes of the system part and the cache hit of the calls.
import type { Options } from "@anthropic-ai/claude-agent-sdk";

export interface PresetTurnsInput {
  systemPrompt: string;
  model: string;
  /** Each prompt is one turn; the later turns resume the first turn's session. */
  prompts: readonly string[];
  executablePath: string;
  env: Record<string, string>;
  cwd: string;
}

/** Runs the turns on the real Claude Code with its preset plus Cadre's prompt appended. */
export async function presetAppendTurns(input: PresetTurnsInput): Promise<void> {
  const { query } = await import("@anthropic-ai/claude-agent-sdk");
  let session: string | undefined;
  for (const prompt of input.prompts) {
    const options: Options = {
      model: input.model,
      systemPrompt: {
        type: "preset",
        preset: "claude_code",
        append: input.systemPrompt,
        excludeDynamicSections: true,
        snapshot: true,
      },
      tools: [],
      settingSources: [],
      strictMcpConfig: true,
      permissionMode: "dontAsk",
      pathToClaudeCodeExecutable: input.executablePath,
      env: input.env,
      cwd: input.cwd,
    };
    if (session !== undefined) options.resume = session;
    for await (const message of query({ prompt, options })) session ??= message.session_id;
  }
}
