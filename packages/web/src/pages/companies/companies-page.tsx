// The companies the operator runs, and the form that creates one (with its CEO and the offline
// connector). A new company opens at once.
import type { Api } from "../../api/client.js";
import { useResource } from "../../hooks/use-resource.js";
import { formatTime } from "../../model/format.js";
import { href } from "../../route.js";
import { CreateCompany } from "./create-company.js";
import { notAllowed, useMe } from "../../session/permissions.js";

export function CompaniesPage({ api }: { api: Api }) {
  const me = useMe();
  const companies = useResource(api, "GET /api/companies", {});
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
              <li key={c.id}>
                <a href={href({ page: "company", companyId: c.id, tab: "overview" })}>{c.name}</a>
                <span class="muted"> · created {formatTime(c.createdAt)}</span>
                {c.goal && <p class="goal">{c.goal}</p>}
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
