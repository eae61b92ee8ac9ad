// The connector drivers, one per kind of the vocabulary (CONNECTOR_KINDS), in one exhaustive record:
// a kind without a driver does not compile, and kinds/drivers.test.ts fails on one at run time. A
// new Pi-routed kind is its vocabulary line, its file in this folder and its line below.
import { CONNECTOR_KINDS, type ConnectorKind } from "@cadre/model";
import { InternalError, UserInputError } from "@cadre/core";
import { anthropicDriver } from "./anthropic.js";
import { claudeCodeDriver } from "./claude-code.js";
import { codexDriver } from "./codex.js";
import type { ConnectorDriver } from "./driver.js";
import { offlineDriver } from "./offline.js";
import { openaiDriver } from "./openai.js";
import { openaiCompatibleDriver } from "./openai-compatible.js";

export type { BudgetEnforcement, ConnectorDriver, TestAttempt, Wire } from "./driver.js";

export const CONNECTOR_DRIVERS: { readonly [K in ConnectorKind]: ConnectorDriver<K> } = {
  offline: offlineDriver,
  anthropic: anthropicDriver,
  openai: openaiDriver,
  "openai-compatible": openaiCompatibleDriver,
  "claude-code": claudeCodeDriver,
  codex: codexDriver,
};

/** The driver of a connector kind; a kind this build does not know (old data, bad input) is refused by name. */
export function driverOf(kind: string): ConnectorDriver {
  if (!Object.prototype.hasOwnProperty.call(CONNECTOR_DRIVERS, kind))
    throw new UserInputError(
      `connector kind "${kind}" is not supported here; allowed: ${CONNECTOR_KINDS.join(", ")}`,
    );
  return CONNECTOR_DRIVERS[kind as ConnectorKind];
}

/** The kinds whose agents run in Pi: Cadre calls their model, so a cassette can record and replay it. */
export function piRoutedKinds(): [ConnectorKind, ...ConnectorKind[]] {
  const [first, ...rest] = CONNECTOR_KINDS.filter((k) => CONNECTOR_DRIVERS[k].harness === "pi");
  // The built-in offline connector is one: never empty.
  if (first === undefined) throw new InternalError("no connector kind runs in Pi");
  return [first, ...rest];
}
