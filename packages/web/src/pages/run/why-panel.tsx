// Why this run happened: the chain of causes back to an operator's action or a schedule.
import type { Resource } from "../../hooks/use-resource.js";
import type { RunWhy } from "../../model/why-chain.js";
import { whyLines } from "../../model/why-chain.js";
import { href } from "../../route.js";

export function WhyPanel({
  why,
  companyId,
  runId,
}: {
  why: Resource<RunWhy>;
  companyId: string;
  runId: string;
}) {
  return (
    <section class="card wide" aria-labelledby="why-title" data-testid="why-panel">
      <h2 id="why-title">Why this run happened</h2>
      {why.error && (
        <p class="alert error" role="alert">
          {why.error}
        </p>
      )}
      {!why.data && !why.error && <p aria-busy="true">Loading…</p>}
      {why.data && (
        <ul class="why">
          {whyLines(why.data).map((line, i) => (
            <li key={i} style={{ paddingLeft: `${line.depth * 1.25}rem` }}>
              {line.runId !== null && line.runId !== runId ? (
                <a href={href({ page: "run", companyId, runId: line.runId })}>{line.text}</a>
              ) : (
                line.text
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
