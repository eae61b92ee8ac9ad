// MC-6: a model is pinned by what the endpoint serves. Each model call's response names the model
// that served it (Claude Code / Anthropic: the message's `model`; Pi: the response's model field
// when it differs from the requested id); one that is not the declared model is a drift: said once
// per run and served id (a run event, an activity row), and under the company's
// `settings.onModelDrift: "refuse"` the run stops at that call. The same holds for a model whose
// fingerprint changed under its id (connectors/model-fingerprints.ts), seen before the run's first
// call: under "refuse" it makes none.
import type { AgentEvent } from "@cadre/core";
import type { FingerprintDrift } from "./connectors/model-fingerprints.js";
import { shortFingerprint } from "./connectors/model-fingerprints.js";

export type DriftPolicy = "warn" | "refuse";

export interface ModelDrift {
  declared: string;
  served: string;
  /** When the model under the declared id changed: what the endpoint offered then and now. */
  fingerprint?: { declared: string; served: string };
}

/** The model a call's event says served it, if it says. */
function servedBy(event: AgentEvent): string | undefined {
  if (event.type === "usage") return event.servedModel;
  if (event.type === "turn_start") return event.model;
  return undefined;
}

/**
 * Whether `served` is the declared model. An endpoint may answer with the dated form of an id the
 * registry pins (`claude-sonnet-4-5-20250929` for itself); only a different model is a drift.
 */
function sameModel(declared: string, served: string): boolean {
  return served === declared;
}

export class DriftWatch {
  readonly drifts: ModelDrift[] = [];
  stop: { reason: "model_drift"; message: string } | undefined;

  constructor(
    private readonly declared: string,
    private readonly policy: DriftPolicy,
  ) {}

  /** The drift event for a model replaced under its declared id (seen when the wake starts). */
  seeFingerprint(changed: FingerprintDrift): AgentEvent {
    const fingerprint = { declared: changed.declared, served: changed.served };
    this.drifts.push({ declared: this.declared, served: this.declared, fingerprint });
    if (this.policy === "refuse" && this.stop === undefined)
      this.stop = {
        reason: "model_drift",
        message: `the endpoint's model "${this.declared}" is not the one declared (${shortFingerprint(changed.declared)} then, ${shortFingerprint(changed.served)} now); the company refuses a drifted model (settings.onModelDrift: refuse)`,
      };
    return {
      type: "model_drift",
      declared: this.declared,
      served: this.declared,
      policy: this.policy,
      fingerprint,
    };
  }

  /** The drift event to record for this event, the first time its served id is seen. */
  see(event: AgentEvent): AgentEvent | undefined {
    const served = servedBy(event);
    if (served === undefined || served === "" || sameModel(this.declared, served)) return undefined;
    if (this.drifts.some((d) => d.served === served)) return undefined;
    this.drifts.push({ declared: this.declared, served });
    if (this.policy === "refuse" && this.stop === undefined)
      this.stop = {
        reason: "model_drift",
        message: `the endpoint served "${served}" for the declared model "${this.declared}"; the company refuses a drifted model (settings.onModelDrift: refuse)`,
      };
    return { type: "model_drift", declared: this.declared, served, policy: this.policy };
  }
}
