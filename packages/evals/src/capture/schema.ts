// What a captured scenario carries beyond a company state (`cadre eval capture`): the run it came
// from, the fault label (τ-bench's fault types), and the behaviour the run showed — the expectation
// to avoid (a labelled, bad run) or to hold (an unlabelled one). One schema for the file, the
// parser and the docs.
import { CEO_MODES, OneOf, type Static, Text } from "@cadre/model";
import { Type } from "typebox";

/** τ-bench's fault types: what went wrong in the captured run. */
export const FAULT_LABELS = [
  "wrong-tool",
  "wrong-argument",
  "unintended-action",
  "missed-step",
  "other",
] as const;
export type FaultLabel = (typeof FAULT_LABELS)[number];

const strict = { additionalProperties: false } as const;
/** Argument values kept from a call: identifiers and numbers, never free text (it varies by wording). */
const ArgValue = Type.Union([Type.String({ maxLength: 200 }), Type.Number(), Type.Boolean()]);

export const CapturedBehaviourSchema = Type.Object(
  {
    toolCalls: Type.Array(
      Type.Object(
        {
          name: Text({ maxLength: 128 }),
          ok: Type.Boolean(),
          args: Type.Record(Type.String(), ArgValue, {
            description: "The call's identifier-like arguments (connector, model, department, type…).",
          }),
        },
        strict,
      ),
      { description: "Every tool call of the run, in order." },
    ),
    hires: Type.Array(
      Type.Object(
        {
          role: Text({ maxLength: 100 }),
          department: Type.Union([Type.String(), Type.Null()]),
          connectorId: Text({ maxLength: 64 }),
          model: Text({ maxLength: 128 }),
        },
        strict,
      ),
    ),
    approvalsFiled: Type.Array(Type.Object({ type: Text({ maxLength: 64 }) }, strict)),
    modeAfter: OneOf(CEO_MODES),
    terminal: OneOf(["done", "failed", "cancelled"]),
  },
  strict,
);
export type CapturedBehaviour = Static<typeof CapturedBehaviourSchema>;

export const CapturedSchema = Type.Object(
  {
    run: Type.Object(
      {
        id: Text({ maxLength: 128 }),
        companyId: Text({ maxLength: 128 }),
        startedAt: Type.String(),
        endedAt: Type.Union([Type.String(), Type.Null()]),
        connectorKind: Text({ maxLength: 64 }),
        model: Text({ maxLength: 128 }),
      },
      strict,
    ),
    capturedAt: Type.String(),
    label: Type.Optional(OneOf(FAULT_LABELS)),
    note: Type.Optional(Text({ maxLength: 2000, multiline: true })),
    expect: OneOf(["avoid", "hold"], {
      description:
        "avoid: a candidate must not repeat the behaviour (a labelled run); hold: it must repeat it.",
    }),
    behaviour: CapturedBehaviourSchema,
  },
  strict,
);
export type Captured = Static<typeof CapturedSchema>;

/** How a candidate fared on a captured scenario (report.json's `captured`). */
export const CapturedVerdictSchema = Type.Object(
  {
    id: Type.String(),
    label: Type.Union([OneOf(FAULT_LABELS), Type.Null()]),
    expect: OneOf(["avoid", "hold"]),
    result: OneOf(["pass", "fail", "not measured"], {
      description:
        "fail: a sample repeated (avoid) or departed from (hold) the capture; pass only when measured.",
    }),
    measured: Type.Boolean(),
    samples: Type.Array(
      Type.Object(
        { sample: Type.Integer({ minimum: 0 }), failed: Type.Boolean(), evidence: Type.String() },
        strict,
      ),
    ),
    evidence: Type.String(),
  },
  strict,
);
export type CapturedVerdict = Static<typeof CapturedVerdictSchema>;
