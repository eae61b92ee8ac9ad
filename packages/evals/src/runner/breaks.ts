// Deliberately broken candidates, for tests and demos of the gates. Each changes what the model is
// shown, the way a bad prompt or tool change would: by editing the request on its way to the
// model (a stream-function wrapper, offline CEO only), or by editing the CEO's mode document
// through the prompt builder's evals-only hook (the locked texts stay as they are). The rest of the
// pipeline (store, tools, Pi loop, wake runner) stays real.
import { type ModeDocumentEdit, toolHistory } from "@cadre/company";
import type { PiContext, StreamFn, ToolDefinition } from "@cadre/core";
import type { CeoMode } from "@cadre/model";

export interface Break {
  name: string;
  description: string;
  /** Which gate a correct harness must fail for this break. */
  expectedFailure: string;
  /** Edits every request before the model sees it (the offline CEO only). */
  wrapStream?: (inner: StreamFn) => StreamFn;
  /** Edits the CEO's mode document (any connector: it is a prompt change). */
  modeDocument?: ModeDocumentEdit;
  /** Edits the CEO's cue (any connector). */
  cue?: (mode: CeoMode, cue: string) => string;
  /** Edits the tools the CEO's session is given, as a code change would (any connector). */
  toolOffer?: (mode: CeoMode, tools: readonly ToolDefinition[]) => ToolDefinition[];
}

const editRequest =
  (edit: (context: PiContext) => PiContext) =>
  (inner: StreamFn): StreamFn =>
  (model, context, options) =>
    inner(model, edit(context), options);

function withoutTool(context: PiContext, tool: string): PiContext {
  return { ...context, tools: (context.tools ?? []).filter((t) => t.name !== tool) };
}

/** The team-building document without the lines that tell the CEO to hire (its step 2 and tool line). */
export const dropHiringInstruction: ModeDocumentEdit = (mode, document) =>
  mode === "team-building"
    ? document
        .split("\n")
        .filter((line) => !line.includes("hire_agent"))
        .join("\n")
    : document;

export const BREAKS: Readonly<Record<string, Break>> = {
  "hide-tool": {
    name: "hide-tool",
    description: "the CEO session is offered no hire_agent (a profile that forgot to register the tool)",
    expectedFailure: "G3",
    wrapStream: editRequest((context) => withoutTool(context, "hire_agent")),
  },
  "single-hire": {
    name: "single-hire",
    description:
      "after its first hire the CEO is no longer offered hire_agent (a prompt that hires one role only)",
    expectedFailure: "G4",
    wrapStream: editRequest((context) => {
      const hired = toolHistory(context.messages).some((h) => h.name === "hire_agent" && h.ok);
      return hired ? withoutTool(context, "hire_agent") : context;
    }),
  },
  "no-hiring-instruction": {
    name: "no-hiring-instruction",
    description:
      "the team-building mode document drops its hiring instruction (the CEO keeps the tool but is never told to build a team)",
    expectedFailure: "G4",
    modeDocument: dropHiringInstruction,
  },
};

export function breakNamed(name: string): Break | undefined {
  return Object.prototype.hasOwnProperty.call(BREAKS, name) ? BREAKS[name] : undefined;
}
