// The operator token's life in the browser: it arrives in a sign-in link's fragment
// (`#token=…`, which browsers never send to a server), is moved at once to the tab's session
// storage (gone when the tab closes, never shared with other tabs), and removed from the address
// bar so that it is not left in history, bookmarks or a screenshot.

const KEY = "cadre.operatorToken";

/** The token of a `#token=…` fragment, if there is one. */
export function tokenFromHash(hash: string): string | undefined {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const token = params.get("token")?.trim();
  return token ? token : undefined;
}

/** The fragment without its token (other parameters are kept); "" when nothing is left. */
export function hashWithoutToken(hash: string): string {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  if (!params.has("token")) return hash;
  params.delete("token");
  const rest = params.toString();
  return rest ? `#${rest}` : "";
}

/**
 * Takes a sign-in link's token out of the address bar (history entry replaced, so it is not left
 * in the history either) and returns it. Called before the app first renders: nothing, not even
 * a hash change made right after the page loads, can come between the link and the token.
 */
export function takeTokenFromLocation(
  loc: Pick<Location, "hash" | "pathname" | "search"> = location,
  hist: Pick<History, "replaceState"> = history,
): string | undefined {
  const token = tokenFromHash(loc.hash);
  if (token !== undefined)
    hist.replaceState(null, "", `${loc.pathname}${loc.search}${hashWithoutToken(loc.hash) || "#/"}`);
  return token;
}

export interface TokenStore {
  get(): string | undefined;
  set(token: string): void;
  clear(): void;
}

export function sessionTokenStore(storage: Pick<Storage, "getItem" | "setItem" | "removeItem">): TokenStore {
  return {
    get: () => storage.getItem(KEY) ?? undefined,
    set: (token) => storage.setItem(KEY, token),
    clear: () => storage.removeItem(KEY),
  };
}
