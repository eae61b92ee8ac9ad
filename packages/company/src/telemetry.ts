// OpenTelemetry events for domain telemetry. A no-op unless the user registers an SDK; the
// activity table is the durable record, this is for the user's own observability stack.
// The API loads on the first event (its CommonJS build, sharing the one global registration with
// its ESM build), so a read command that records nothing never loads its fifty modules.
import { createRequire } from "node:module";
import type { Tracer, TraceAPI } from "@opentelemetry/api";

let otel: { trace: TraceAPI; tracer: Tracer } | undefined;

function telemetry(): { trace: TraceAPI; tracer: Tracer } {
  if (!otel) {
    const { trace } = createRequire(import.meta.url)("@opentelemetry/api") as { trace: TraceAPI };
    otel = { trace, tracer: trace.getTracer("cadre") };
  }
  return otel;
}

export function recordTelemetry(name: string, attributes: Record<string, string | number | boolean>): void {
  const { trace, tracer } = telemetry();
  const active = trace.getActiveSpan();
  if (active) {
    active.addEvent(name, attributes);
    return;
  }
  const span = tracer.startSpan(name, { attributes });
  span.addEvent(name, attributes);
  span.end();
}
