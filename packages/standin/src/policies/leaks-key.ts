// leaksKey(): a misbehaving endpoint for tests of Cadre's redaction. It answers every
// model call with the vendor's 400 whose message quotes the key the request presented — raw, as
// its `Bearer …` header, base64-encoded (as a Basic header would carry it) and URL-encoded — the way
// a careless gateway or a debugging proxy does. Offline and says so, like every stand-in answer.
import type { Policy, StandinRequest } from "../types.js";

/** The key a request presented: `x-api-key`, else the `Authorization: Bearer` token. */
export function presentedKey(request: Pick<StandinRequest, "headers">): string | undefined {
  const bearer = /^Bearer\s+(.+)$/i.exec(request.headers["authorization"] ?? "")?.[1];
  return request.headers["x-api-key"] ?? bearer;
}

/** The error text a leaking endpoint answers with, for a given key. */
export function leakedText(key: string): string {
  const basic = Buffer.from(`user:${key}`).toString("base64");
  return (
    `stand-in (offline, leaking on purpose): bad request for key ${key}; ` +
    `header was "Bearer ${key}"; basic ${basic}; b64 ${Buffer.from(key).toString("base64")}; ` +
    `query ?api_key=${encodeURIComponent(key)}`
  );
}

export function leaksKey(): Policy {
  return (request) => ({
    type: "error",
    error: {
      kind: "invalid_request",
      message: leakedText(presentedKey(request) ?? "(no key presented)"),
    },
  });
}
