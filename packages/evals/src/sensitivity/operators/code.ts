// Operators on code facts, read from the tool registry: a tool dropped from a mode's offer, an
// optional parameter made required (its validation with it) — what a code change would do, applied
// to the session's tools through the wake's evals-only hook (the registry stays as it is).
import { toolValidator } from "@cadre/company";
import { CEO_MODES, type TSchema } from "@cadre/model";
import { type Mutant, mutantId } from "../mutant.js";
import { editTool, type OperatorContext } from "./context.js";

/** Each company tool dropped from each CEO mode's offer. */
export function dropOffer(ctx: OperatorContext): Mutant[] {
  return CEO_MODES.flatMap((mode) => {
    const offered = ctx.offered(mode);
    return offered.map((tool): Mutant => {
      // Equivalent when no mode the wake can reach by itself lets the call succeed: the handler
      // refuses it wherever the CEO could call it, so offering it or not changes no outcome.
      const reach = ctx.reachable(mode);
      const never = !reach.some((m) => ctx.usable(m).includes(tool));
      return {
        id: mutantId("drop-offer", `${mode}-${tool}`, offered),
        operator: "drop-offer",
        description: `the CEO's ${mode} session is not given ${tool} (offer: ${offered.filter((t) => t !== tool).join(", ") || "none"})`,
        modes: [mode],
        diff: [
          `--- offer/ceo/${mode}`,
          `+++ offer/ceo/${mode} (mutant)`,
          ...offered.map((t) => (t === tool ? `-${t}` : ` ${t}`)),
        ].join("\n"),
        ...(never
          ? {
              equivalent: `${tool} is refused in ${mode} and in every mode the CEO can reach from it by itself (${reach.join(", ")}): no call of it can succeed either way`,
            }
          : {}),
        edit: { toolOffer: (m, tools) => (m === mode ? tools.filter((t) => t.name !== tool) : [...tools]) },
      };
    });
  });
}

type ObjectSchema = TSchema & { properties?: Record<string, TSchema>; required?: string[] };

/** Each optional parameter of each tool the CEO is given, made required (schema and validation). */
export function requireOptional(ctx: OperatorContext): Mutant[] {
  const out: Mutant[] = [];
  for (const tool of ctx.tools) {
    const modes = CEO_MODES.filter((m) => ctx.offered(m).includes(tool.name));
    if (modes.length === 0) continue;
    const schema = tool.schema as ObjectSchema;
    const required = schema.required ?? [];
    for (const param of Object.keys(schema.properties ?? {})) {
      if (required.includes(param)) continue;
      const now = [...required, param];
      out.push({
        id: mutantId("require-optional", `${tool.name}-${param}`, required),
        operator: "require-optional",
        description: `${tool.name}'s optional parameter ${param} is required`,
        modes,
        diff: [
          `--- tool/${tool.name}/schema.required`,
          `+++ tool/${tool.name}/schema.required (mutant)`,
          `-${JSON.stringify(required)}`,
          `+${JSON.stringify(now)}`,
        ].join("\n"),
        edit: {
          toolOffer: editTool(tool.name, (t) => {
            const parameters = { ...(t.parameters as ObjectSchema), required: now } as TSchema;
            return { ...t, parameters, validate: toolValidator(t.name, parameters) };
          }),
        },
      });
    }
  }
  return out;
}
