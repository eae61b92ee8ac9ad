// Raising the budget right where the warning is: the limit that binds (tokens when tokens bind,
// USD when dollars do), prefilled with today's value, sent as `cadre budgets set` sends it; and
// the company's own price of a model, for spend that shows as unknown. The server checks both.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";
import type { BudgetUse } from "../../api/types.js";
import { bindingLimit } from "../../model/budget-view.js";
import { ActionError } from "../../ui/action-error.js";
import { useAction } from "../../ui/use-action.js";

export function BudgetRaise({
  api,
  companyId,
  budget,
  models,
  onDone,
  name = "Raise the budget",
  choose = false,
}: {
  /** The limit form's name: raising it on a warning, setting it on the Usage tab. */
  name?: string;
  /** Offer both limits (tokens, USD) to set, not only the one that binds. */
  choose?: boolean;
  api: Api;
  companyId: string;
  budget: BudgetUse;
  /** The models the company's agents run on: the price picker's choices. */
  models: string[];
  onDone(): void;
}) {
  // On a warning the limit that binds now (re-read with the budget); on the Usage tab the one chosen.
  const [chosen, setKind] = useState(bindingLimit(budget));
  const kind = choose ? chosen : bindingLimit(budget);
  const today = (k: "tokens" | "usd") => {
    const current = k === "tokens" ? budget.limitTokens : budget.limitUsd;
    return current === null ? "" : String(current);
  };
  const [limit, setLimit] = useState(today(kind));
  const [model, setModel] = useState(models[0] ?? "");
  const [input, setInput] = useState("");
  const [output, setOutput] = useState("");
  const raise = useAction();
  const price = useAction();
  // What is not a number goes as typed, so the server's own check names the field (never NaN,
  // which JSON would send as null: no limit at all).
  const number = (v: string): number => {
    const n = Number(v);
    return (v.trim() !== "" && Number.isFinite(n) ? n : v) as number;
  };
  return (
    <div class="budget-raise" data-testid="budget-raise">
      <form
        aria-label={name}
        onSubmit={(e) => {
          e.preventDefault();
          void raise
            .run(() =>
              api.call("PUT /api/companies/{id}/budget", {
                params: { id: companyId },
                body: kind === "tokens" ? { tokens: number(limit) } : { usd: number(limit) },
              }),
            )
            .then((ok) => ok && onDone());
        }}
      >
        {choose && (
          <>
            <label for="budget-raise-kind">Limit on</label>
            <select
              id="budget-raise-kind"
              value={kind}
              onChange={(e) => {
                const next = e.currentTarget.value === "usd" ? "usd" : "tokens";
                setKind(next);
                setLimit(today(next));
              }}
            >
              <option value="tokens">tokens</option>
              <option value="usd">USD</option>
            </select>
          </>
        )}
        <label for="budget-raise-limit">
          {kind === "tokens" ? "Token limit" : "USD limit"} per{" "}
          {budget.period === "month" ? "month" : "company lifetime"}
        </label>
        <input
          id="budget-raise-limit"
          inputMode="decimal"
          value={limit}
          onInput={(e) => setLimit(e.currentTarget.value)}
        />
        <button type="submit" class="primary" aria-disabled={raise.busy}>
          Set the limit
        </button>
        <ActionError error={raise.error} />
      </form>
      {models.length > 0 && (
        <details>
          <summary>Set a model's price (USD per million tokens)</summary>
          <form
            aria-label="Set a model's price"
            onSubmit={(e) => {
              e.preventDefault();
              void price
                .run(() =>
                  api.call("PUT /api/companies/{id}/budget", {
                    params: { id: companyId },
                    body: {
                      price: {
                        model,
                        since: new Date().toISOString().slice(0, 10),
                        input: number(input),
                        output: number(output),
                        cacheRead: 0,
                        cacheWrite: 0,
                      },
                    },
                  }),
                )
                .then((ok) => ok && onDone());
            }}
          >
            <label for="price-model">Model</label>
            <select id="price-model" value={model} onChange={(e) => setModel(e.currentTarget.value)}>
              {models.map((m) => (
                <option key={m} value={m}>
                  {m}
                </option>
              ))}
            </select>
            <label for="price-input">Input</label>
            <input
              id="price-input"
              inputMode="decimal"
              value={input}
              onInput={(e) => setInput(e.currentTarget.value)}
            />
            <label for="price-output">Output</label>
            <input
              id="price-output"
              inputMode="decimal"
              value={output}
              onInput={(e) => setOutput(e.currentTarget.value)}
            />
            <button type="submit" aria-disabled={price.busy}>
              Set the price
            </button>
            <ActionError error={price.error} />
          </form>
        </details>
      )}
    </div>
  );
}
