import { describe, expect, it } from "vitest";
import { MIN_SECRET_LENGTH, REDACTED, Redactor, secretForms } from "./redact.js";

const KEY = "sk-ant-api03-Zq8_Xv2+kR9/mT4wLp7yNc1";

describe("Redactor: every configured key, in the forms providers quote it in", () => {
  const r = Redactor.of([KEY, undefined, "short"]);

  it("redacts the raw key, a Bearer header and an x-api-key line", () => {
    expect(r.text(`bad request for key ${KEY}.`)).toBe(`bad request for key ${REDACTED}.`);
    expect(r.text(`Authorization: Bearer ${KEY}`)).toBe(`Authorization: Bearer ${REDACTED}`);
    expect(r.text(`x-api-key: ${KEY}\n`)).toBe(`x-api-key: ${REDACTED}\n`);
  });

  it("redacts its URL-encoded form", () => {
    const text = `GET /v1/models?key=${encodeURIComponent(KEY)} failed`;
    expect(encodeURIComponent(KEY)).not.toBe(KEY);
    expect(r.text(text)).not.toContain(encodeURIComponent(KEY));
  });

  it("redacts its base64 form alone and inside a longer encoded text, at every alignment", () => {
    expect(r.finds(Buffer.from(KEY).toString("base64"))).toBe(true);
    expect(r.finds(Buffer.from(KEY).toString("base64url"))).toBe(true);
    for (const prefix of ["", "u", "us", "user:", "Bearer "]) {
      const b64 = Buffer.from(`${prefix}${KEY} and more`).toString("base64");
      expect(r.finds(b64), `prefix ${JSON.stringify(prefix)}`).toBe(true);
      expect(r.text(`Basic ${b64}`)).toContain(REDACTED);
      const url = Buffer.from(`${prefix}${KEY}`).toString("base64url");
      expect(r.finds(url), `base64url prefix ${JSON.stringify(prefix)}`).toBe(true);
    }
  });

  it("leaves ordinary text, other keys and short values alone", () => {
    expect(r.text("nothing secret here, just short words")).toBe("nothing secret here, just short words");
    expect(r.text("sk-ant-api03-someoneelse")).toBe("sk-ant-api03-someoneelse");
    expect(r.text("a short value")).toBe("a short value");
    expect(secretForms("short")).toEqual([]);
    expect(MIN_SECRET_LENGTH).toBeGreaterThan(4);
    expect(r.secrets).toBe(1);
  });

  it("walks values: the same object when nothing changed, a copy of what did", () => {
    const clean = { type: "text_delta", index: 0, delta: "hello" };
    expect(r.value(clean)).toBe(clean);
    const dirty = {
      type: "error",
      message: `401 ${KEY}`,
      raw: { nested: [1, `key ${KEY}`, { ok: true }], keep: { a: 1 } },
    };
    const out = r.value(dirty);
    expect(out).not.toBe(dirty);
    expect(JSON.stringify(out)).not.toContain(KEY);
    expect(out.raw.keep).toBe(dirty.raw.keep);
    expect(dirty.message).toContain(KEY); // the original is untouched
  });

  it("redacts nothing when no secret is configured", () => {
    const none = Redactor.of([]);
    expect(none.text(`key ${KEY}`)).toBe(`key ${KEY}`);
    expect(none.secrets).toBe(0);
  });
});
