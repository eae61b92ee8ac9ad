// Property-based hostile input over every company tool, run the way every harness path runs a call
// (core's callTool: look up, validate strictly, execute; Pi's adapter runs the same validate and
// execute). Whatever the model sends: no exception escapes; a refusal is an error tool result the
// model can read, naming the field it refuses, with every table exactly as it was; an accepted call
// stored what its result says. Mutations come from each tool's own schema (@cadre/model/testing).
// Fixed seed by default; CADRE_FC_SEED=N replays another (fast-check prints it with any failure).
import { callTool, type ToolDefinition } from "@cadre/core";
import { hostileInput, materialise, propertyParameters } from "@cadre/model/testing";
import { openStore, type Store } from "@cadre/store";
import fc from "fast-check";
import type { Kysely } from "kysely";
import { describe, expect, it } from "vitest";
import { createCompany } from "../companies.js";
import { loadCompanyState } from "../state.js";
import type { Actor } from "../actions/actor.js";
import { companyTools } from "./registry.js";

const RUNS = 60;

interface ValidCall {
  args: Record<string, unknown>;
  /** Company settings under which the valid call succeeds on its input alone. */
  requireHireApproval: boolean;
  /** What the result says it wrote, and the same read from the store: equal. */
  readBack: (store: Store, result: Record<string, unknown>) => Promise<[unknown, unknown]>;
}

/** A valid call for every company tool; a tool without one fails the suite. */
const VALID_CALLS: Record<string, ValidCall> = {
  hire_agent: {
    args: {
      name: "CMO",
      role: "Chief Marketing Officer",
      description: "Owns the market.",
      connectorId: "offline",
      model: "offline-scripted-1",
      department: "marketing",
    },
    requireHireApproval: false,
    readBack: async (store, result) => {
      const agent = await store.getAgent(result["agentId"] as string);
      return [result, { agentId: agent?.id, name: agent?.name, role: agent?.role }];
    },
  },
  file_approval: {
    // A hire approval: filing one leaves the CEO's mode as it is (a second strategy would be
    // refused for the phase, not for its input).
    args: { type: "hire_agent", title: "Hire a CFO", payload: "We need one.\n\tSoon." },
    requireHireApproval: true,
    readBack: async (store, result) => {
      const approval = await store.getApproval(result["approvalId"] as string);
      return [result, { approvalId: approval?.id, type: approval?.type, status: approval?.status }];
    },
  },
  reply_to_operator: {
    args: { text: "Two leads hired.\n\tThe strategy follows." },
    requireHireApproval: false,
    readBack: async (store, result) => {
      const rows = await store.listActivity((await store.listCompanies())[0]!.id, { type: "message.posted" });
      const row = rows.find((r) => r.id === result["messageId"]);
      return [result, { messageId: row?.id, at: row?.at }];
    },
  },
};

async function snapshot(store: Store): Promise<Record<string, unknown[]>> {
  const db = (store as unknown as { db: Kysely<any> }).db;
  const out: Record<string, unknown[]> = {};
  for (const table of Object.keys(await store.counts()))
    out[table] = await db.selectFrom(table).selectAll().execute();
  return out;
}

async function company(requireHireApproval: boolean): Promise<{ store: Store; actor: Actor }> {
  const store = await openStore({ memory: true });
  const row = await createCompany(store, {
    name: "Acme",
    goal: "Sell software.",
    settings: { maxTeamSize: 200, requireHireApproval },
  });
  const state = await loadCompanyState(store, row.id);
  await store.insertRun({
    id: "run_hostile",
    companyId: row.id,
    agentId: state.ceo.id,
    trigger: "routine",
    mode: state.mode,
    profile: "semantic",
    cue: "cue",
  });
  return { store, actor: { companyId: row.id, agentId: state.ceo.id, via: "tool", runId: "run_hostile" } };
}

const textOf = (r: { content: Array<{ type: string; text?: string }> }) =>
  r.content.map((c) => (c.type === "text" ? (c.text ?? "") : "")).join("\n");

describe("hostile input on every company tool", () => {
  it("has a valid call for every tool", async () => {
    const { store, actor } = await company(false);
    try {
      expect(Object.keys(VALID_CALLS).sort(), "add a valid call for each tool to VALID_CALLS").toEqual(
        companyTools(store, actor)
          .map((t) => t.name)
          .sort(),
      );
    } finally {
      await store.close();
    }
  });

  for (const [name, valid] of Object.entries(VALID_CALLS)) {
    it(`${name}: mutations of its arguments`, async () => {
      const { store, actor } = await company(valid.requireHireApproval);
      try {
        const tools = companyTools(store, actor);
        const tool = tools.find((t) => t.name === name) as ToolDefinition;
        let call = 0;
        await fc.assert(
          fc.asyncProperty(hostileInput(tool.parameters, valid.args), async (c) => {
            const args = materialise(c.body);
            const label = `${name} with ${c.label}`;
            const before = await snapshot(store);
            // callTool never throws by contract; an escaping exception fails the property as it is.
            const result = await callTool(tools, name, args, {
              toolCallId: `call-${call++}`,
              signal: undefined,
            });
            const text = textOf(result);
            if (!result.isError) {
              expect(c.invalid, `${label}: accepted an input invalid by construction: ${text}`).toBe(false);
              const [said, read] = await valid.readBack(store, JSON.parse(text) as Record<string, unknown>);
              expect(read, `${label}: read back`).toEqual(said);
              return;
            }
            expect(await snapshot(store), `${label}: a refusal changed the tables`).toEqual(before);
            expect(text, label).toMatch(new RegExp(`^${name} (was not run|failed)`));
            expect(text, `${label}: a refusal the model can act on`).toMatch(/nothing was written/);
            // The refusal names the field, as the model wrote it (`name`, `config.x`), or the input itself.
            const check = tool.validate(args);
            if (c.invalid) {
              expect(check.ok, `${label}: validation passed an input invalid by construction`).toBe(false);
              const fields = check.ok ? [] : Object.keys(check.fields);
              const field = fields.find(
                (f) => f === c.target || f.startsWith(`${c.target}.`) || f.startsWith(`${c.target}[`),
              );
              expect(field, `${label}: the refusal names ${c.target}: ${text}`).toBeDefined();
              expect(text, label).toContain(field === "" ? "the input" : `\`${field}\``);
            } else {
              expect(text, `${label}: the refusal names a field: ${text}`).toMatch(/`[^`]+`|the input/);
            }
          }),
          propertyParameters(RUNS),
        );
      } finally {
        await store.close();
      }
    });
  }
});
