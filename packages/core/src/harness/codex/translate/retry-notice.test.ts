import { describe, expect, it } from "vitest";
import { retryNotice } from "./retry-notice.js";

describe("Codex's reconnect notices, said as retries", () => {
  it("a counted retry names the attempt, the bound and Codex's reason", () => {
    expect(
      retryNotice("Reconnecting... 2/5 (stream disconnected before completion: error sending request)"),
    ).toEqual({
      type: "error",
      code: "retrying",
      retryable: true,
      message: "retrying (2 of 5): stream disconnected before completion: error sending request",
    });
  });

  it("a status in Codex's reason is said as the provider's answer", () => {
    expect(
      retryNotice("Reconnecting... 1/2 (unexpected status 429 Too Many Requests: slow down)")?.message,
    ).toBe(
      "retrying (1 of 2): the provider answered 429 (unexpected status 429 Too Many Requests: slow down)",
    );
  });

  it("waiting for network is an unreachable provider, with no count", () => {
    expect(
      retryNotice("Reconnecting... waiting for network (Connection failed: error sending request)")?.message,
    ).toBe("retrying: the provider could not be reached (Connection failed: error sending request)");
  });

  it("any other message is no retry", () => {
    for (const m of ["stream error", "Reconnect failed for good", "We're currently experiencing high demand"])
      expect(retryNotice(m)).toBeUndefined();
  });
});
