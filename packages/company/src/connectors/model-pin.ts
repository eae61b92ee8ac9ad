// A model declared for an agent (a hire, a model switch) is pinned by what its endpoint offers for it
// then (MC-6), when the connector kept nothing for it yet — a connector added while its endpoint was
// down, or a model enabled later. Read from the endpoint probe's last outcome: no I/O, so it runs
// inside the declaring transaction. A kept fingerprint is never replaced here: a model changed
// under its id stays a drift until the operator declares the connector again.
import type { ConnectorRow, StoreQueries } from "@cadre/store";
import type { ProbeBook } from "./probe-cache.js";
import { offeredFingerprint } from "./readiness.js";

export interface PinContext {
  env?: NodeJS.ProcessEnv | undefined;
  probes?: ProbeBook | undefined;
}

export async function pinDeclaredModel(
  tx: StoreQueries,
  connector: ConnectorRow | undefined,
  model: string,
  context: PinContext = {},
): Promise<void> {
  if (!connector || connector.modelFingerprints?.[model] !== undefined) return;
  const offered = offeredFingerprint(connector, model, context.env, context.probes);
  if (offered !== undefined)
    await tx.pinModelFingerprints(connector.companyId, connector.id, { [model]: offered });
}
