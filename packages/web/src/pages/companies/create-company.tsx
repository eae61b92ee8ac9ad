// Creating a company: a name and a goal. The API adds the CEO and a ready offline connector; a
// refusal names the field at fault and is shown next to the form.
import { useState } from "preact/hooks";
import type { Api } from "../../api/client.js";

export function CreateCompany({ api, onCreated }: { api: Api; onCreated(id: string): void }) {
  const [name, setName] = useState("");
  const [goal, setGoal] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>(undefined);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const created = await api.call("POST /api/companies", {
        body: { name: name.trim(), ...(goal.trim() ? { goal: goal.trim() } : {}) },
      });
      onCreated(created.id);
    } catch (err) {
      // The API's message names the field at fault and what it accepts.
      setError(err instanceof Error ? err.message : String(err));
    } finally {
      setBusy(false);
    }
  };
  return (
    <section aria-labelledby="create-title" class="card">
      <h2 id="create-title">Create a company</h2>
      <form onSubmit={(e) => void submit(e)}>
        <label for="company-name">Name</label>
        <input
          id="company-name"
          value={name}
          maxLength={100}
          required
          onInput={(e) => setName(e.currentTarget.value)}
        />
        <label for="company-goal">Goal</label>
        <textarea
          id="company-goal"
          value={goal}
          maxLength={1000}
          rows={3}
          placeholder="What the company is for; the CEO plans its team from it."
          onInput={(e) => setGoal(e.currentTarget.value)}
        />
        {error && (
          <p class="alert error" role="alert">
            {error}
          </p>
        )}
        <button type="submit" disabled={busy || !name.trim()}>
          {busy ? "Creating…" : "Create company"}
        </button>
      </form>
    </section>
  );
}
