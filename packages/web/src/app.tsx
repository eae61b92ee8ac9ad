// The dashboard's frame: signed out → the sign-in page; signed in → the header and the page the
// address bar names.
import type { Api } from "./api/client.js";
import { useRoute } from "./hooks/use-route.js";
import { CompaniesPage } from "./pages/companies/companies-page.js";
import { CompanyPage } from "./pages/company/company-page.js";
import { EvalPage } from "./pages/eval/eval-page.js";
import { RunPage } from "./pages/run/run-page.js";
import type { Route } from "./route.js";
import { SignIn } from "./session/sign-in.js";
import { MeContext, signedInAs } from "./session/permissions.js";
import { useSession } from "./session/use-session.js";

export function App({ linkToken }: { linkToken: string | undefined }) {
  const { session, signIn, signOut } = useSession(linkToken);
  const route = useRoute();
  if (session.status === "checking") {
    return (
      <main class="sign-in" aria-busy="true">
        <p>Signing in…</p>
      </main>
    );
  }
  if (session.status === "signed-out")
    return <SignIn {...(session.error ? { error: session.error } : {})} onSubmit={(t) => void signIn(t)} />;
  return (
    <MeContext.Provider value={session.me}>
      <header class="top">
        <a class="brand" href="#/">
          Cadre
        </a>
        <nav aria-label="Main">
          <a href="#/" aria-current={route.page === "companies" ? "page" : undefined}>
            Companies
          </a>
          <a href="#/eval" aria-current={route.page === "eval" ? "page" : undefined}>
            Evaluation report
          </a>
        </nav>
        <span class="who" data-testid="signed-in-as" title="Signed in as">
          {signedInAs(session.me)}
        </span>
        <button type="button" class="quiet" onClick={signOut}>
          Sign out
        </button>
      </header>
      <Page route={route} api={session.api} />
    </MeContext.Provider>
  );
}

function Page({ route, api }: { route: Route; api: Api }) {
  switch (route.page) {
    case "companies":
      return <CompaniesPage api={api} />;
    case "company":
      return <CompanyPage key={route.companyId} api={api} companyId={route.companyId} tab={route.tab} />;
    case "task":
      return (
        <CompanyPage
          key={route.companyId}
          api={api}
          companyId={route.companyId}
          tab="tasks"
          focusTask={route.taskId}
        />
      );
    case "run":
      return <RunPage key={route.runId} api={api} companyId={route.companyId} runId={route.runId} />;
    case "eval":
      return <EvalPage />;
  }
}
