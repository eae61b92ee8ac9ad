// What a company tool is, in one place: its name, the schema the model reads (and every path
// validates against), the operation it runs, who is given it in which CEO modes and where a call
// can succeed, what the prompt contract checks about it, and its schema's hash. The registry
// (registry.ts) lists the entries; offeredTools, the mode tables, the prompt contract, the eval's
// schema hashes and the company view all read them.
import { createHash } from "node:crypto";
import { textOutcome, type ToolDefinition } from "@cadre/core";
import type { CeoMode, Static, TSchema } from "@cadre/model";
import type { Store } from "@cadre/store";
import type { ActionResult, Actor } from "../actions/actor.js";
import { canonicalJson } from "../actions/canonical-json.js";
import type { ToolCallRef } from "../actions/once.js";
import { toolValidator } from "./validate.js";

/** Who is given a tool: "ceo" (the company's CEO) or "member" (every other agent). */
export type ToolRole = "ceo" | "member";

export interface RoleOffer {
  /** The CEO modes in which a session of this role is given the tool (fixed per session, MC-3). */
  offeredIn: readonly CeoMode[];
  /** The CEO modes in which this role's call can succeed; the operation refuses it elsewhere. */
  usableIn: readonly CeoMode[];
}

/** What the prompt contract (prompts/contract.ts) checks about the tool in the texts a model reads. */
export interface ToolContract {
  /** The file that holds the tool's description; a problem with it points here. */
  source: string;
  /** Words each mode document that lets the tool succeed names with it (e.g. the approval type to file). */
  documentedWith?: readonly string[];
}

export interface CompanyTool<N extends string = string, S extends TSchema = TSchema, R = unknown> {
  name: N;
  label: string;
  /** The model-facing description (locked, MC-7). */
  description: string;
  /** The one schema behind the model-facing definition, validation and docs. */
  schema: S;
  /** The operation every path shares (the tool, `cadre mcp`, the HTTP route where there is one). */
  run(store: Store, actor: Actor, input: Static<S>, call: ToolCallRef): Promise<ActionResult<R>>;
  roles: Readonly<Partial<Record<ToolRole, RoleOffer>>>;
  contract: ToolContract;
  /** The evaluation's G2 freezes this schema against the baseline's recorded hash. */
  frozenByEval: boolean;
  /** One line for an operator on a successful call (the CLI's run renderer). */
  summarize?(value: R): string;
  /** SHA-256 of the schema's canonical JSON: what a recording keeps and G2 compares. */
  readonly schemaHash: string;
}

/** Declares a company tool; the schema hash is computed when first asked for. */
export function defineCompanyTool<const N extends string, S extends TSchema, R>(
  spec: Omit<CompanyTool<N, S, R>, "schemaHash">,
): CompanyTool<N, S, R> {
  let hash: string | undefined;
  return {
    ...spec,
    get schemaHash() {
      return (hash ??= createHash("sha256").update(canonicalJson(spec.schema), "utf8").digest("hex"));
    },
  };
}

/** The tool as a harness gets it, bound to the store and the acting agent. */
export function toolDefinition<S extends TSchema>(
  tool: CompanyTool<string, S>,
  store: Store,
  actor: Actor,
): ToolDefinition<S> {
  return {
    name: tool.name,
    label: tool.label,
    description: tool.description,
    parameters: tool.schema,
    validate: toolValidator(tool.name, tool.schema),
    async execute(input, context) {
      const result = await tool.run(store, actor, input, { toolCallId: context.toolCallId });
      return result.ok
        ? textOutcome(JSON.stringify(result.value), false, result.value)
        : textOutcome(result.message, true, { fields: result.fields });
    },
  };
}
