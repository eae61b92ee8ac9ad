// Test support: an OTLP/HTTP receiver on loopback that decodes what an exporter sends (JSON, the
// OTLP HTTP exporter's encoding) into plain spans, as a collector would see them.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ReceivedSpan {
  traceId: string;
  spanId: string;
  parentSpanId: string | null;
  name: string;
  kind: number;
  status: { code: number; message?: string };
  attributes: Record<string, unknown>;
  resource: Record<string, unknown>;
}

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  doubleValue?: number;
  boolValue?: boolean;
  arrayValue?: { values?: OtlpValue[] };
}

function valueOf(v: OtlpValue): unknown {
  if (v.stringValue !== undefined) return v.stringValue;
  if (v.intValue !== undefined) return Number(v.intValue);
  if (v.doubleValue !== undefined) return v.doubleValue;
  if (v.boolValue !== undefined) return v.boolValue;
  if (v.arrayValue !== undefined) return (v.arrayValue.values ?? []).map(valueOf);
  return undefined;
}

const attrs = (list: { key: string; value: OtlpValue }[] | undefined) =>
  Object.fromEntries((list ?? []).map((a) => [a.key, valueOf(a.value)]));

export interface OtlpReceiver {
  url: string;
  spans: ReceivedSpan[];
  /** Content types of the requests received (what the exporter said it sent). */
  contentTypes: string[];
  close(): Promise<void>;
}

export async function startOtlpReceiver(): Promise<OtlpReceiver> {
  const spans: ReceivedSpan[] = [];
  const contentTypes: string[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      if (req.method !== "POST" || req.url !== "/v1/traces") {
        res.writeHead(404).end();
        return;
      }
      contentTypes.push(String(req.headers["content-type"] ?? ""));
      const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as {
        resourceSpans?: {
          resource?: { attributes?: { key: string; value: OtlpValue }[] };
          scopeSpans?: { spans?: Record<string, unknown>[] }[];
        }[];
      };
      for (const rs of body.resourceSpans ?? [])
        for (const ss of rs.scopeSpans ?? [])
          for (const s of ss.spans ?? [])
            spans.push({
              traceId: String(s["traceId"]),
              spanId: String(s["spanId"]),
              parentSpanId: s["parentSpanId"] ? String(s["parentSpanId"]) : null,
              name: String(s["name"]),
              kind: Number(s["kind"]),
              status: (s["status"] as { code: number; message?: string }) ?? { code: 0 },
              attributes: attrs(s["attributes"] as { key: string; value: OtlpValue }[]),
              resource: attrs(rs.resource?.attributes),
            });
      res.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    contentTypes,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
