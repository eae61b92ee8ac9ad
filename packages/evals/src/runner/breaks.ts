// Deliberately broken candidates, for tests and demos of the gates. Each is a wrapper around the
// offline CEO that changes what the model is shown, the way a bad prompt or tool change would;
// the rest of the pipeline (store, tools, Pi loop, wake runner) stays real.
import { toolHistory } from "@cadre/company";
import type { Script, ScriptRequest } from "@cadre/core";

export interface Break {
  name: string;
  description: string;
  /** Which gate a correct harness must fail for this break. */
  expectedFailure: string;
  wrap(script: Script): Script;
}

function withoutTool(request: ScriptRequest, tool: string): ScriptRequest {
  return { ...request, context: { ...request.context, tools: (request.context.tools ?? []).filter((t) => t.name !== tool) } };
}

export const BREAKS: Readonly<Record<string, Break>> = {
  "hide-tool": {
    name: "hide-tool",
    description: "the CEO session is offered no hire_agent (a profile that forgot to register the tool)",
    expectedFailure: "G3",
    wrap: (script) => (request) => script(withoutTool(request, "hire_agent")),
  },
  "single-hire": {
    name: "single-hire",
    description: "after its first hire the CEO is no longer offered hire_agent (a prompt that hires one role only)",
    expectedFailure: "G4",
    wrap: (script) => (request) => {
      const hired = toolHistory(request.context.messages).some((h) => h.name === "hire_agent" && h.ok);
      return script(hired ? withoutTool(request, "hire_agent") : request);
    },
  },
};

export function breakNamed(name: string): Break | undefined {
  return Object.prototype.hasOwnProperty.call(BREAKS, name) ? BREAKS[name] : undefined;
}
