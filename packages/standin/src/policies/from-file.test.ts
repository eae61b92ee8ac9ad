// JSON policy files: a list of scripted replies, checked as a whole when loaded.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import type { StandinRequest } from "../types.js";
import { loadPolicyFile, parsePolicyJson, PolicyFileError } from "./from-file.js";

let dir: string | undefined;
afterEach(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});
const request = {} as StandinRequest;

describe("policy files", () => {
  it("plays the replies in order, strings as texts", async () => {
    dir = await mkdtemp(join(tmpdir(), "standin-policy-"));
    const file = join(dir, "policy.json");
    const replies = [
      "Hello",
      { content: [{ type: "tool_call", name: "hire_agent", input: { name: "CTO" } }] },
      { type: "error", error: { kind: "rate_limit" }, retryAfterSeconds: 1 },
    ];
    await writeFile(file, JSON.stringify(replies));
    const policy = await loadPolicyFile(file);
    const at = (callIndex: number) => policy(request, { callIndex, inputTokens: 0 });
    expect(await at(0)).toEqual({ content: [{ type: "text", text: "Hello" }] });
    expect(await at(1)).toEqual(replies[1]);
    expect(await at(2)).toEqual(replies[2]);
    expect(await at(3)).toMatchObject({
      type: "error",
      error: { message: expect.stringMatching(/exhausted: 3 replies/) },
    });
  });

  it("names the first problem and where it is", async () => {
    const bad = (value: unknown) => () => parsePolicyJson(JSON.stringify(value), "policy file p.json");
    expect(bad({})).toThrow(
      new PolicyFileError(
        "policy file p.json: must be a non-empty JSON list of replies (strings or reply objects)",
      ),
    );
    expect(bad(["ok", { content: [{ type: "image" }] }])).toThrow(
      /\[1\]\.content\[0\]\.type must be text, thinking or tool_call \(got "image"\)/,
    );
    expect(bad([{ type: "error", error: { kind: "teapot" } }])).toThrow(
      /\[0\]\.error\.kind must be one of invalid_request, /,
    );
    expect(bad([{ content: [], cut: { afterEvents: 2, then: "explode" } }])).toThrow(
      /\[0\]\.cut\.then must be one of reset, end, hang, error/,
    );
    expect(() => parsePolicyJson("[", "policy file p.json")).toThrow(/^policy file p.json: not JSON/);
    await expect(loadPolicyFile("/nonexistent/p.json")).rejects.toThrow(
      /policy file \/nonexistent\/p.json cannot be read: ENOENT/,
    );
  });
});
