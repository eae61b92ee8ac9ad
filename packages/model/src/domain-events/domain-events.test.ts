// The domain events' schemas: every type's sample fits it, the union as a schema (the SSE frame's
// document) takes exactly the members, and a misfit is named by its field.
import { Type } from "typebox";
import { Value } from "typebox/value";
import { describe, expect, it } from "vitest";
import { sampleDomainEvents } from "../testing/domain-events.js";
import { DOMAIN_EVENT_TYPES, domainEventProblem, domainEventSchema } from "./index.js";

describe("domain events", () => {
  it("has a fitting sample of every type", () => {
    const samples = sampleDomainEvents();
    expect(samples.map((e) => e.type)).toEqual(DOMAIN_EVENT_TYPES);
    for (const event of samples) expect(domainEventProblem(event), event.type).toBeUndefined();
  });

  it("as a schema, takes each member with its carrier's fields and nothing else", () => {
    const frame = domainEventSchema({ feedId: Type.Integer() });
    for (const event of sampleDomainEvents()) expect(Value.Check(frame, { feedId: 1, ...event })).toBe(true);
    const hired = sampleDomainEvents().find((e) => e.type === "agent.hired")!;
    expect(Value.Check(frame, { ...hired })).toBe(false);
    expect(Value.Check(frame, { feedId: 1, ...hired, extra: 1 })).toBe(false);
    expect(Value.Check(frame, { feedId: 1, type: "mode.changed", data: hired.data })).toBe(false);
  });

  it("names what does not fit: an unknown type with the known ones, or the data's field", () => {
    expect(domainEventProblem({ type: "agent.fired", data: {} })).toMatch(
      /^"agent\.fired" is not a domain event type; the types are: company\.created, /,
    );
    expect(domainEventProblem({ type: "toString", data: {} })).toMatch(/is not a domain event type/);
    expect(domainEventProblem({ type: "mode.changed", data: { from: "operating", to: "x" } })).toBe(
      'its data does not fit "mode.changed": `data.to` must be one of: team-building, strategy-drafting, awaiting-approval, revising, operating (got "x"); `data.reason` is required',
    );
    expect(domainEventProblem({ type: "run.stopped", data: null })).toMatch(/`data` must be an object/);
  });
});
