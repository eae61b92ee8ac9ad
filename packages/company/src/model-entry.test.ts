import { openStore, type Store } from "@cadre/store";
import { echo, startStandin, type StandinServer } from "@cadre/standin";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { createCompany } from "./companies.js";
import { refreshReadiness, validateEnabledModels } from "./connectors/readiness.js";
import { loadCompanyState } from "./state.js";
import { toolDefinition } from "./tools/entry.js";
import { hireAgentTool } from "./tools/hire-agent.js";

// MC-6: every place a model id enters the company layer refuses aliases with the explicit ids.
let standin: StandinServer;
beforeAll(async () => {
  standin = await startStandin({ policy: echo });
});
afterAll(async () => standin.close());

let store: Store;
beforeEach(async () => {
  store = await openStore({ memory: true });
});
afterEach(async () => store.close());

describe("MC-6 aliases are refused where a model enters", () => {
  it("connector enabledModels (company creation) refuses an alias, naming the explicit ids, and writes nothing", async () => {
    await expect(
      createCompany(store, { name: "Acme", connectors: [{ kind: "anthropic", enabledModels: ["sonnet"] }] }),
    ).rejects.toThrow(
      'model "sonnet" is an alias; Cadre routes only explicit model ids. Use one of: claude-sonnet-4-6, claude-sonnet-4-5-20250929, claude-sonnet-4-20250514',
    );
    expect(() => validateEnabledModels("openai", ["gpt-5"])).toThrow(
      'model "gpt-5" is an alias; Cadre routes only explicit model ids. Use one of: gpt-5-2025-08-07',
    );
    expect(await store.listCompanies()).toEqual([]);
  });

  it("hire_agent answers an alias with the alias message and the explicit ids, before the enabled-models check", async () => {
    const company = await createCompany(store, {
      name: "Acme",
      connectors: [
        {
          id: "anthropic",
          kind: "anthropic",
          enabledModels: ["claude-sonnet-4-5-20250929"],
          // A ready connector: its endpoint (the loopback stand-in, speaking Anthropic's wire) answers.
          config: { apiKeyEnv: "PATH", baseUrl: standin.url },
        },
      ],
    });
    const state = await loadCompanyState(store, company.id);
    // As a wake does before its session starts: the probes run, then hire_agent reads their outcome.
    await refreshReadiness(state.connectors);
    const tool = toolDefinition(hireAgentTool, store, {
      companyId: company.id,
      agentId: state.ceo.id,
      via: "tool",
      runId: null,
    });
    const input = {
      name: "CTO",
      role: "Chief Technology Officer",
      description: "Leads engineering.",
      connectorId: "anthropic",
      model: "claude-sonnet-4-5",
    };
    const outcome = await tool.execute(input, { toolCallId: "t1", signal: undefined });
    expect(outcome.isError).toBe(true);
    expect(outcome.content).toEqual([
      {
        type: "text",
        text: 'hire_agent was not run, nothing was written. `model` "claude-sonnet-4-5" is an alias; only explicit model ids are used. Explicit ids: claude-sonnet-4-5-20250929; enabled on connector "anthropic": claude-sonnet-4-5-20250929.',
      },
    ]);
    const family = await tool.execute({ ...input, model: "opus" }, { toolCallId: "t2", signal: undefined });
    expect(family.content[0]).toMatchObject({
      text: expect.stringContaining(
        '`model` "opus" is an alias; only explicit model ids are used. Explicit ids: claude-opus-4-7, claude-opus-4-6',
      ),
    });
    expect((await store.listAgents(company.id)).length).toBe(1);
  });
});
