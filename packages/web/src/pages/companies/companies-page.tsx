// The companies the operator runs, each at a glance (the CEO's mode, decisions waiting, runs in
// progress, today's spend from the reader's midnight), and the form that creates one (with its CEO
// and the offline connector). A new company opens at once. The list has no event stream of its own
// (each company has one): it is read again every little while the tab is seen, and when it is
// shown again, so a glance is never older than that.
import type { Api } from "../../api/client.js";
import { useEffect, useMemo } from "preact/hooks";
import { useResource } from "../../hooks/use-resource.js";
import { glanceFacts, localMidnight } from "../../model/company-glance.js";
import { formatTime } from "../../model/format.js";
import { ModeBadge } from "../company/mode-badge.js";
import { href } from "../../route.js";
import { CreateCompany } from "./create-company.js";
import { notAllowed, useMe } from "../../session/permissions.js";

/** How often the list is read again while seen. */
const REREAD_MS = 15_000;

export function CompaniesPage({ api }: { api: Api }) {
  const me = useMe();
  const since = useMemo(() => localMidnight(), []);
  const companies = useResource(api, "GET /api/companies", { query: { since } });
  const { reload } = companies;
  useEffect(() => {
    const again = () => {
      if (document.visibilityState === "visible") reload();
    };
    const timer = setInterval(again, REREAD_MS);
    document.addEventListener("visibilitychange", again);
    return () => {
      clearInterval(timer);
      document.removeEventListener("visibilitychange", again);
    };
  }, [reload]);
  return (
    <main class="page">
      <h1>Companies</h1>
      <div class="columns">
        <section aria-labelledby="list-title" class="card">
          <h2 id="list-title">Your companies</h2>
          {companies.error && (
            <p class="alert error" role="alert">
              {companies.error}
            </p>
          )}
          {companies.data && companies.data.items.length === 0 && (
            <p class="muted">No company yet: create the first one.</p>
          )}
          <ul class="company-list" data-testid="company-list">
            {[...(companies.data?.items ?? [])].reverse().map((c) => (
              <li key={c.id} data-testid="company-item">
                <div class="company-line">
                  <a href={href({ page: "company", companyId: c.id, tab: "overview" })}>{c.name}</a>
                  <ModeBadge mode={c.glance.ceoMode} />
                </div>
                <ul class="glance" data-testid="company-glance" aria-label={`${c.name} at a glance`}>
                  {glanceFacts(c.glance).map((f, i) => (
                    <li key={i} class={f.tone === "muted" ? "muted" : `glance-${f.tone}`}>
                      {i === 0 && c.glance.pendingDecisions > 0 ? (
                        <a href={href({ page: "company", companyId: c.id, tab: "approvals" })}>{f.text}</a>
                      ) : (
                        f.text
                      )}
                    </li>
                  ))}
                </ul>
                {c.goal && <p class="goal">{c.goal}</p>}
                <p class="muted small">created {formatTime(c.createdAt)}</p>
              </li>
            ))}
          </ul>
        </section>
        {/* Creating a company is for an owner of every company. */}
        {me.may.administer && me.companies === null ? (
          <CreateCompany
            api={api}
            onCreated={(id) => (location.hash = href({ page: "company", companyId: id, tab: "overview" }))}
          />
        ) : (
          <p class="muted" data-testid="create-not-allowed">
            {notAllowed(me, "administer")}
          </p>
        )}
      </div>
    </main>
  );
}
