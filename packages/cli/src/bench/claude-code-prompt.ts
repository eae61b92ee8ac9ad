// The CEO's prompt on Claude Code: the bytes of the system part Claude Code sends per
// model call and the share of input tokens read from the prompt cache, for the CEO's real prompt,
// over two turns (the second resumes the first), on the real Claude Code binary against a loopback
// stand-in. Candidate: Cadre's adapter (Cadre's prompt is the whole system prompt). Baseline: the
// same prompt appended to Claude Code's coding preset, as the SDK suggests by default (and as Cadre
// did before). The stand-in measures what it received; nothing leaves loopback.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { buildAgentPrompt, createCompany, loadCompanyState } from "@cadre/company";
import { ClaudeCodeAgent, resolveModel } from "@cadre/core";
import { presetAppendTurns } from "@cadre/core/bench";
import { claudeCodeTestEnv, REAL_CLAUDE_CODE } from "@cadre/core/testing";
import { type ModelCall, scripted, startStandin } from "@cadre/standin";
import { openStore } from "@cadre/store";
import { type Benchmark, figure } from "./registry.js";

const MODEL = "claude-sonnet-4-5-20250929";
const TURNS = ["Start building the team.", "Carry on."];

interface Sent {
  systemBytes: number;
  cacheHit: number;
}

function measure(calls: readonly ModelCall[]): Sent {
  let bytes = 0;
  let read = 0;
  let input = 0;
  for (const call of calls) {
    bytes += Buffer.byteLength(call.request.systemBlocks.map((b) => b.text).join(""), "utf8");
    const u = call.answered?.usage;
    read += u?.cacheRead ?? 0;
    input += (u?.input ?? 0) + (u?.cacheRead ?? 0) + (u?.cacheWrite ?? 0);
  }
  return { systemBytes: bytes / Math.max(1, calls.length), cacheHit: input > 0 ? read / input : 0 };
}

async function ceoPrompt(): Promise<string> {
  const store = await openStore({ memory: true });
  try {
    const company = await createCompany(store, {
      name: "Northwind Robotics",
      goal: "Build autonomous warehouse robots and sell them to mid-sized logistics companies.",
    });
    const state = await loadCompanyState(store, company.id);
    return buildAgentPrompt({ state, agent: state.ceo, mode: state.mode, memoryIndex: "" }).systemPrompt;
  } finally {
    await store.close();
  }
}

async function onStandin(run: (baseUrl: string, dir: string) => Promise<void>): Promise<Sent> {
  const server = await startStandin({ policy: scripted(TURNS.map((_, i) => `Answer ${i + 1}.`)) });
  const dir = await mkdtemp(join(tmpdir(), "cadre-bench-claude-"));
  try {
    await run(server.anthropicBaseUrl, dir);
    return measure(server.modelCalls());
  } finally {
    await server.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export const claudeCodePromptBench: Benchmark = {
  name: "claude-code-prompt",
  description:
    "the CEO's system part on real Claude Code (bytes per call, cache hit) vs Claude Code's preset with the prompt appended",
  async run() {
    const executable = REAL_CLAUDE_CODE;
    if (!executable) return { figures: [], notMeasured: "Claude Code's binary is not installed here" };
    const systemPrompt = await ceoPrompt();
    const cadre = await onStandin(async (baseUrl, dir) => {
      const agent = new ClaudeCodeAgent(
        { sessionId: "bench", systemPrompt, model: resolveModel(MODEL), tools: [] },
        { executablePath: executable, env: claudeCodeTestEnv(dir, baseUrl), cwd: dir },
      );
      for (const prompt of TURNS) for await (const _ of agent.send(prompt));
    });
    const preset = await onStandin((baseUrl, dir) =>
      presetAppendTurns({
        systemPrompt,
        model: MODEL,
        prompts: TURNS,
        executablePath: executable,
        env: claudeCodeTestEnv(dir, baseUrl),
        cwd: dir,
      }),
    );
    return {
      figures: [
        figure(
          "CEO system part per call",
          cadre.systemBytes,
          "B/call",
          "Claude Code preset + appended prompt",
          preset.systemBytes,
          ({ value }) => ({
            description: "≤ the Cadre prompt + 1 kB",
            met: value <= Buffer.byteLength(systemPrompt, "utf8") + 1024,
          }),
        ),
        figure(
          "input read from the prompt cache",
          cadre.cacheHit * 100,
          "%",
          "Claude Code preset + appended prompt",
          preset.cacheHit * 100,
        ),
      ],
    };
  },
};
