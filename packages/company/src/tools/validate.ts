// A tool's strict validator, from its schema (the one the model reads): the clean input, or a
// refusal the model can read and act on — which field, why, what is allowed — with nothing written.
import type { ValidationResult } from "@cadre/core";
import { describeProblems, parse, type Static, type TSchema } from "@cadre/model";

export function toolValidator<S extends TSchema>(
  toolName: string,
  schema: S,
): (raw: unknown) => ValidationResult<Static<S>> {
  return (raw) => {
    const parsed = parse(schema, raw);
    if (parsed.ok) return parsed;
    return {
      ok: false,
      message: `${toolName} was not run, nothing was written. Fix: ${describeProblems(parsed.problems)}.`,
      fields: parsed.problems,
    };
  };
}
