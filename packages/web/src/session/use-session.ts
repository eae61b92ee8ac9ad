// Signing in: a token from the sign-in link (or pasted by hand) is checked against the API before
// it is kept; a stored token is checked again on load (a restarted server has a new one). Any 401
// later signs the tab out with the server's reason.
import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { type Api, ApiError, createApi } from "../api/client.js";
import { sessionTokenStore, takeTokenFromLocation } from "./token.js";

import type { Me } from "./permissions.js";

export type Session =
  | { status: "checking" }
  | { status: "signed-out"; error?: string }
  | { status: "signed-in"; api: Api; me: Me };

const store = () => sessionTokenStore(window.sessionStorage);

function explain(error: unknown, fromLink: boolean): string {
  if (error instanceof ApiError && error.status === 401) {
    return `Sign-in failed: the server did not accept this token (${error.message}). ${fromLink ? "Open the sign-in link that cadre serve printed most recently" : "Check the operator token that cadre serve printed, or your own from cadre operators add"} — a restarted server has a new token, and a revoked operator's no longer works.`;
  }
  return `Sign-in failed: ${error instanceof Error ? error.message : String(error)}`;
}

/** `linkToken`: the token of the sign-in link the page was opened with, already out of the URL. */
export function useSession(linkToken: string | undefined): {
  session: Session;
  signIn(token: string): Promise<void>;
  signOut(): void;
} {
  const [session, setSession] = useState<Session>({ status: "checking" });

  const signOut = useCallback((error?: string) => {
    store().clear();
    setSession(error ? { status: "signed-out", error } : { status: "signed-out" });
  }, []);

  const verify = useCallback(
    async (token: string, fromLink: boolean) => {
      setSession({ status: "checking" });
      const api = createApi(token, {
        onUnauthorized: (e) =>
          signOut(
            `Signed out: the server no longer accepts this tab's token (${e.message}). Open the sign-in link that cadre serve printed.`,
          ),
      });
      try {
        // Who the token is: any operator (owner, operator, viewer) or an agent key signs in.
        const me = await api.call("GET /api/me");
        store().set(token);
        setSession({ status: "signed-in", api, me });
      } catch (error) {
        store().clear();
        setSession({ status: "signed-out", error: explain(error, fromLink) });
      }
    },
    [signOut],
  );

  useEffect(() => {
    if (linkToken !== undefined) {
      void verify(linkToken, true);
    } else {
      const stored = store().get();
      if (stored) void verify(stored, false);
      else setSession({ status: "signed-out" });
    }
    // A sign-in link opened in a tab that is already running.
    const onHash = () => {
      const token = takeTokenFromLocation();
      if (token !== undefined) void verify(token, true);
    };
    window.addEventListener("hashchange", onHash);
    return () => window.removeEventListener("hashchange", onHash);
  }, [linkToken, verify]);

  return useMemo(
    () => ({ session, signIn: (token: string) => verify(token.trim(), false), signOut: () => signOut() }),
    [session, verify, signOut],
  );
}
