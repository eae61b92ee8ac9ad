// Parameter validity of a hire, checked against the scenario independently of the handler that
// wrote it: the same field validation as the tool, a connector the scenario declares ready, and a
// model that connector enables.
import { validateHireAgentInput } from "@cadre/company";
import type { Scenario } from "../scenario/types.js";
import type { TraceHire } from "../trace/types.js";

/**
 * `ceoRoute` ("connector/model" of the CEO's own connector): a live run seeds the CEO on a
 * connector of its own (ceo-<kind>), which counts as declared and ready with the CEO's model.
 */
export function hireProblems(hire: TraceHire, scenario: Scenario, ceoRoute?: string): string[] {
  const problems: string[] = [];
  const input = {
    name: hire.name,
    role: hire.role,
    description: hire.description,
    connectorId: hire.connectorId,
    model: hire.model,
    ...(hire.department ? { department: hire.department } : {}),
  };
  const validated = validateHireAgentInput(input);
  if (!validated.ok) problems.push(...Object.entries(validated.fields).map(([f, why]) => `${f} ${why}`));
  const connector = scenario.connectors.find((c) => c.id === hire.connectorId);
  const seededCeo = ceoRoute?.startsWith("ceo-") ? ceoRoute.split("/")[0] : undefined;
  if (!connector && hire.connectorId === seededCeo) {
    if (`${hire.connectorId}/${hire.model}` !== ceoRoute)
      problems.push(
        `model "${hire.model}" is not enabled on "${hire.connectorId}" (enabled: ${ceoRoute?.slice(seededCeo.length + 1)})`,
      );
  } else if (!connector) problems.push(`connector "${hire.connectorId}" is not one of the scenario's`);
  else {
    if (!connector.ready) problems.push(`connector "${hire.connectorId}" is not ready in this scenario`);
    if (!connector.enabledModels.includes(hire.model))
      problems.push(
        `model "${hire.model}" is not enabled on "${hire.connectorId}" (enabled: ${connector.enabledModels.join(", ") || "none"})`,
      );
  }
  return problems;
}
