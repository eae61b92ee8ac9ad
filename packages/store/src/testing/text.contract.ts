// Text and JSON values come back exactly as written. NUL (U+0000) is left out: PostgreSQL text
// cannot hold it, so no caller may rely on storing it.
import { nameKey } from "@cadre/model";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { ConflictError } from "../errors.js";
import { agent, approval, company, run, runEvent, seed, type GetStore } from "./fixtures.js";

const SAMPLES = [
  "emoji 👩‍💻🚀🇫🇷 and skin tones 👍🏽",
  "CJK 公司目标 · RTL مرحبا · combining é vs é",
  "controls \u0001\u0007\b\t\n\r\u000b\f\u001b\u007f\u0085\u2028\u2029",
  `quotes ' " \` backslash \\ percent % underscore _ semicolon ; -- comment`,
  "",
  "x".repeat(100_000),
];

/** Any code point but NUL and lone surrogates (which no UTF-8 store can keep). */
const anyChar = fc.string({ unit: "binary", minLength: 1, maxLength: 1 }).filter((c) => c !== "\u0000");
const anyText = fc.string({ unit: anyChar });

export function textContract(store: GetStore): void {
  describe("text", () => {
    it("round-trips unicode, emoji and control characters in every kind of column", async () => {
      await seed(store());
      for (const [i, s] of SAMPLES.entries()) {
        const settings = { maxTeamSize: 1, requireHireApproval: true, profile: "semantic" as const, [s]: s };
        await store().insertCompany(company(`c${i}`, { name: s, goal: s, settings }));
        expect(await store().getCompany(`c${i}`)).toMatchObject({ name: s, goal: s, settings: { [s]: s } });

        await store().insertAgent(agent(`a${i}`, { name: s, description: s }));
        expect(await store().getAgent(`a${i}`)).toMatchObject({ name: s, description: s });

        await store().insertApproval(approval(`p${i}`, { title: s, payload: s }), s);
        expect(await store().getApproval(`p${i}`)).toMatchObject({ title: s, payload: s });
        expect((await store().listApprovalEvents(`p${i}`))[0]?.actor).toBe(s);

        await store().insertRun(run(`r${i}`, { cue: s }));
        expect((await store().getRun(`r${i}`))?.cue).toBe(s);
        const [event] = await store().appendRunEvents([
          runEvent(`r${i}`, 0, { type: s, data: { [s]: [s] } }),
        ]);
        expect((await store().listRunEvents(`r${i}`))[0]).toEqual(event);
        expect(event).toMatchObject({ type: s, data: { [s]: [s] } });
      }
    });

    it("round-trips arbitrary text and JSON", async () => {
      await seed(store());
      await store().insertRun(run("r1"));
      let n = 0;
      const keys = new Set([nameKey("Agent ceo")]);
      await fc.assert(
        fc.asyncProperty(anyText, fc.jsonValue({ stringUnit: anyChar }), async (text, data) => {
          n += 1;
          // Active agents' names are unique on their key: a text that reads as an earlier one is a
          // conflict (records.contract.ts); any other is kept exactly.
          const key = nameKey(text);
          const clash = keys.has(key);
          keys.add(key);
          const outcome = await store()
            .insertAgent(agent(`a${n}`, { name: text }))
            .then(
              () => "inserted",
              (e: unknown) => e,
            );
          if (clash) expect(outcome).toBeInstanceOf(ConflictError);
          else {
            expect(outcome).toBe("inserted");
            expect((await store().getAgent(`a${n}`))?.name).toBe(text);
          }
          await store().appendRunEvents([runEvent("r1", n, { data })]);
          const stored = (await store().listRunEvents("r1")).at(-1);
          // The store promises JSON semantics, so the reference is the value after a JSON round trip (-0 → 0).
          expect(stored?.data).toEqual(JSON.parse(JSON.stringify(data)));
        }),
        { numRuns: 60 },
      );
    });
  });
}
