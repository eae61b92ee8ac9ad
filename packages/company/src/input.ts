// The company's entry points (createCompany, decideApproval, mintAgentToken, setAgentModel,
// addConnector) check what they are given against the same schemas the API and the tools publish,
// so the CLI, the HTTP routes, the MCP server and scenario files refuse exactly the same input.
import { UserInputError } from "@cadre/core";
import { describeProblems, parse, type Static, type TSchema } from "@cadre/model";

/** The clean input, or a UserInputError naming each bad field (nothing is written). */
export function checkInput<S extends TSchema>(subject: string, schema: S, raw: unknown): Static<S> {
  const parsed = parse(schema, raw);
  if (parsed.ok) return parsed.value;
  throw new UserInputError(
    `${subject}: nothing was written. Fix: ${describeProblems(parsed.problems)}.`,
    parsed.problems,
  );
}
