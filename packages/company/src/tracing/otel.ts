// OpenTelemetry export, off by default: with an OTLP endpoint configured (OTEL_EXPORTER_OTLP_ENDPOINT
// or --otel-endpoint), the official SDK exports each run's spans over OTLP/HTTP. The SDK loads only
// then, so a command that exports nothing never pays for it. Spans go through a provider of our
// own (not the global one): what a run records is exactly what run-trace.ts makes.
import type { Tracer } from "@opentelemetry/api";

export interface TracingOptions {
  /** The OTLP base URL (spans go to `${endpoint}/v1/traces`), or a full traces URL ending in /v1/traces. */
  endpoint: string;
  /** Put prompt and completion text on the spans (off unless the operator opts in). */
  captureContent?: boolean;
  serviceName?: string;
}

interface Active {
  tracer: Tracer;
  captureContent: boolean;
  flush(): Promise<void>;
  shutdown(): Promise<void>;
}

let active: Active | undefined;

/** The tracer runs record to, or undefined when tracing is off (the default). */
export function runTracer(): { tracer: Tracer; captureContent: boolean } | undefined {
  return active;
}

/** What the environment asks for: the endpoint, and whether content may be captured; undefined when off. */
export function tracingFromEnv(env: NodeJS.ProcessEnv): TracingOptions | undefined {
  const endpoint = env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"] || env["OTEL_EXPORTER_OTLP_ENDPOINT"];
  if (!endpoint) return undefined;
  return {
    endpoint,
    captureContent: env["OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"] === "true",
  };
}

export function tracesUrl(endpoint: string): string {
  if (!/^https?:\/\/\S+$/.test(endpoint))
    throw new Error(
      `the OTLP endpoint must be an http(s) URL, e.g. http://127.0.0.1:4318 (got "${endpoint}")`,
    );
  const base = endpoint.replace(/\/+$/, "");
  return base.endsWith("/v1/traces") ? base : `${base}/v1/traces`;
}

/** Starts exporting (once per process; a second call changes nothing). */
export async function startTracing(options: TracingOptions): Promise<void> {
  if (active) return;
  const url = tracesUrl(options.endpoint);
  const [{ BasicTracerProvider, BatchSpanProcessor }, { OTLPTraceExporter }, { resourceFromAttributes }] =
    await Promise.all([
      import("@opentelemetry/sdk-trace-base"),
      import("@opentelemetry/exporter-trace-otlp-http"),
      import("@opentelemetry/resources"),
    ]);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": options.serviceName ?? "cadre" }),
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url }))],
  });
  active = {
    tracer: provider.getTracer("cadre"),
    captureContent: options.captureContent === true,
    flush: () => provider.forceFlush(),
    shutdown: () => provider.shutdown(),
  };
}

/** Flushes under way: a later flush waits for them too (the buffer it finds may be empty meanwhile). */
const inflight = new Set<Promise<void>>();

/** Sends what is buffered (a run's spans, once it ended), and waits for the sends already under way. */
export async function flushTracing(): Promise<void> {
  if (!active) return;
  const flush = active.flush();
  inflight.add(flush);
  try {
    await Promise.allSettled([...inflight]);
  } finally {
    inflight.delete(flush);
  }
}

/** Sends what is buffered and stops; tracing is off again. */
export async function stopTracing(): Promise<void> {
  const current = active;
  active = undefined;
  await current?.shutdown();
}
