// OpenTelemetry events for domain telemetry. A no-op unless the user registers an SDK; the
// activity table is the durable record, this is for the user's own observability stack.
import { trace } from "@opentelemetry/api";

const tracer = trace.getTracer("cadre");

export function recordTelemetry(name: string, attributes: Record<string, string | number | boolean>): void {
  const active = trace.getActiveSpan();
  if (active) {
    active.addEvent(name, attributes);
    return;
  }
  const span = tracer.startSpan(name, { attributes });
  span.addEvent(name, attributes);
  span.end();
}
