// Prompt assembly and the per-call prefix check (MC-3/MC-4), against plain baselines in the same
// run: assembling = rendering the same segments and joining them, without the hashes, offsets and
// volatile-content check; the prefix check (string comparison, tool list, one hash per segment as
// sent) = a bare comparison of the system prompt. Both run once per session / per model call,
// never per event.
import {
  buildAgentPrompt,
  companyTools,
  contactsSegment,
  createCompany,
  hireAgent,
  hostRuntimeSegment,
  loadCompanyState,
  MEMORY_RULES,
  HARNESS_PRESETS,
  CEO_PRODUCT_APPEND,
  MODE_DOCUMENTS,
} from "@cadre/company";
import { OFFLINE_MODEL_ID, StablePrefixGuard } from "@cadre/core";
import { openStore } from "@cadre/store";
import { compare } from "./measure.js";
import { type Benchmark, figure } from "./registry.js";

const BUILDS = 2_000;
const CHECKS = 20_000;
const MEMORY = "- goals.md: the company goal in my words\n- market.md: logistics customers to call first\n";

export const promptAssemblyBench: Benchmark = {
  name: "prompt-assembly",
  description:
    "system-prompt assembly (hash, offsets, volatile check) and the per-call stable-prefix check vs plain baselines",
  async run() {
    const store = await openStore({ memory: true });
    try {
      const company = await createCompany(store, {
        name: "Northwind Robotics",
        goal: "Build autonomous warehouse robots and sell them to mid-sized logistics companies.",
      });
      const ceoId = (await loadCompanyState(store, company.id)).ceo.id;
      for (const [name, role] of [
        ["CTO", "Chief Technology Officer"],
        ["CFO", "Chief Financial Officer"],
        ["CMO", "Chief Marketing Officer"],
      ] as const) {
        await hireAgent(
          store,
          { companyId: company.id, agentId: ceoId, via: "tool", runId: null },
          { name, role, description: `Leads as ${role}.`, connectorId: "offline", model: OFFLINE_MODEL_ID },
        );
      }
      const state = await loadCompanyState(store, company.id);
      const agent = state.ceo;
      const input = { state, agent, mode: state.mode, memoryIndex: MEMORY };
      let sink = 0;
      const assemble = await compare(
        () => {
          for (let i = 0; i < BUILDS; i++) {
            const text = [
              HARNESS_PRESETS.pi,
              `${CEO_PRODUCT_APPEND}\n\n${MODE_DOCUMENTS[state.mode]}`,
              MEMORY_RULES,
              contactsSegment(state, agent),
              hostRuntimeSegment(state, agent, state.mode),
              `## MEMORY.md\n${MEMORY.trim()}`,
            ].join("\n\n");
            sink += text.length;
          }
        },
        () => {
          for (let i = 0; i < BUILDS; i++) sink += buildAgentPrompt(input).systemPrompt.length;
        },
      );
      const prompt = buildAgentPrompt(input);
      const tools = companyTools(store, {
        companyId: company.id,
        agentId: agent.id,
        via: "tool",
        runId: null,
      });
      const guard = new StablePrefixGuard(prompt.segments);
      guard.check(prompt.systemPrompt, tools);
      // Worst case for the check: an equal but distinct string (a full byte comparison) and a new tools array.
      const sent = Buffer.from(prompt.systemPrompt, "utf8").toString("utf8");
      const check = await compare(
        () => {
          for (let i = 0; i < CHECKS; i++) sink += prompt.systemPrompt === sent ? 1 : 0;
        },
        () => {
          for (let i = 0; i < CHECKS; i++) sink += guard.check(sent, tools.slice()).call;
        },
      );
      if (sink === 0) throw new Error("benchmark work was optimised away");
      return {
        figures: [
          figure(
            "assembly: buildAgentPrompt",
            BUILDS / (assemble.candidate.ms / 1000),
            "prompts/s",
            "plain render + join",
            BUILDS / (assemble.baseline.ms / 1000),
          ),
          figure(
            "assembly: allocation",
            assemble.candidate.allocatedBytes / BUILDS,
            "B/prompt",
            "plain render + join",
            assemble.baseline.allocatedBytes / BUILDS,
          ),
          figure(
            "prefix check per model call",
            (check.candidate.ms * 1000) / CHECKS,
            "µs/call",
            "bare comparison of the system prompt",
            (check.baseline.ms * 1000) / CHECKS,
          ),
          figure(
            "prefix check allocation",
            check.candidate.allocatedBytes / CHECKS,
            "B/call",
            "bare comparison of the system prompt",
            check.baseline.allocatedBytes / CHECKS,
          ),
        ],
      };
    } finally {
      await store.close();
    }
  },
};
