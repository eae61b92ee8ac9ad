// The team as a table (the org chart's content in a form every reader and keyboard can use), with
// a button to wake any active agent; a refused wake is said in a full-width row under its agent.
import type { Agent } from "../../api/types.js";
import { viaLabel } from "./via-label.js";
import type { Wake } from "./use-wake.js";
import { useMe } from "../../session/permissions.js";

export function Team({
  agents,
  wake,
  running,
}: {
  agents: Agent[];
  wake: Wake;
  /** Agents with a run in progress: their wake waits for it. */
  running: ReadonlySet<string>;
}) {
  // Waking is an operator's action: a viewer sees the team without the buttons.
  const may = useMe().may.act;
  return (
    <section class="card wide" aria-labelledby="team-title">
      <h2 id="team-title">Team</h2>
      <div class="table-scroll">
        <table data-testid="team-table" class="stack-on-phone">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Department</th>
              <th scope="col">Connector · model</th>
              <th scope="col">How hired</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {agents.map((a) => [
              <tr key={a.id} class={a.status === "terminated" ? "terminated" : undefined}>
                <th scope="row">{a.name}</th>
                <td data-label="Role">{a.role}</td>
                <td data-label="Department">{a.department ?? "—"}</td>
                <td data-label="Connector · model">
                  {a.connectorId} · {a.model}
                </td>
                <td data-label="How hired">{a.status === "terminated" ? "terminated" : viaLabel(a)}</td>
                <td>
                  {a.status === "active" && may && (
                    <button
                      type="button"
                      disabled={wake.busy === a.id || running.has(a.id)}
                      onClick={() => void wake.start(a.id)}
                      aria-label={running.has(a.id) ? `${a.name} is running` : `Wake ${a.name}`}
                    >
                      {wake.busy === a.id ? "Waking…" : running.has(a.id) ? "Running" : "Wake"}
                    </button>
                  )}
                </td>
              </tr>,
              // The refusal gets a row of its own under the agent, so a long message never
              // squeezes the table's columns.
              wake.error?.agentId === a.id && wake.error.trigger !== "start_team_building" && (
                <tr key={`${a.id}-error`} class="row-error" data-testid="wake-error">
                  <td colSpan={6}>
                    <p class="alert error" role="alert">
                      Wake {a.name}: {wake.error.message}
                    </p>
                  </td>
                </tr>
              ),
            ])}
          </tbody>
        </table>
      </div>
    </section>
  );
}
