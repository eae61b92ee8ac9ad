// The signed-out page: why sign-in failed (if it did), and a field to paste the operator token
// for when the link is not at hand.
import { useState } from "preact/hooks";

export function SignIn(props: { error?: string; onSubmit(token: string): void }) {
  const [token, setToken] = useState("");
  return (
    <main class="sign-in">
      <h1>Cadre operator dashboard</h1>
      {props.error ? (
        <p class="alert error" role="alert" data-testid="sign-in-error">
          {props.error}
        </p>
      ) : (
        <p>
          Open the sign-in link that <code>cadre serve</code> printed (
          <code>dashboard: http://127.0.0.1:PORT/#token=…</code>), or paste the operator token.
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          if (token.trim()) props.onSubmit(token);
        }}
      >
        <label for="token">Operator token</label>
        <input
          id="token"
          type="password"
          autocomplete="off"
          spellcheck={false}
          value={token}
          onInput={(e) => setToken(e.currentTarget.value)}
          required
        />
        <button type="submit" class="primary">
          Sign in
        </button>
      </form>
    </main>
  );
}
