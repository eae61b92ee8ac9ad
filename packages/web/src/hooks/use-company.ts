// A company as the company pages show it: read from the API once, then kept current by the
// company's domain events (hires, approvals, mode changes) and its runs' starts and ends over the
// event stream (`?kind=lifecycle`). An event is
// shown at once from its own data and the resources it touches are re-read shortly after, a burst
// of events costing one read per resource.
import { useCallback, useEffect, useRef, useState } from "preact/hooks";
import { type Api, listAll } from "../api/client.js";
import { followEvents, type StreamStatus } from "../api/event-stream.js";
import type { Agent, Approval, Connector, FeedMessage, Run, Task } from "../api/types.js";
import { applyDomainEvent, type Resource, type ShownCompany } from "../model/company-live.js";

export interface LiveCompany {
  company: ShownCompany | undefined;
  agents: Agent[];
  connectors: Connector[];
  approvals: Approval[];
  runs: Run[];
  tasks: Task[];
  /** Changes whenever the company's budget state may have changed (a budget set, warned, exhausted). */
  budgetVersion: number;
  /** Changes whenever a message was posted to the thread with the CEO. */
  messagesVersion: number;
  error: string | undefined;
  stream: StreamStatus;
  /** Re-reads the named resources (default all), e.g. after the operator acted. */
  reload(which?: Resource[]): void;
}

const ALL: Resource[] = ["company", "agents", "approvals", "connectors", "runs", "tasks"];

export function useCompany(api: Api, companyId: string): LiveCompany {
  const [company, setCompany] = useState<ShownCompany | undefined>(undefined);
  const [agents, setAgents] = useState<Agent[]>([]);
  const [connectors, setConnectors] = useState<Connector[]>([]);
  const [approvals, setApprovals] = useState<Approval[]>([]);
  const [runs, setRuns] = useState<Run[]>([]);
  const [tasks, setTasks] = useState<Task[]>([]);
  const [budgetVersion, setBudgetVersion] = useState(0);
  const [messagesVersion, setMessagesVersion] = useState(0);
  const [error, setError] = useState<string | undefined>(undefined);
  const [stream, setStream] = useState<StreamStatus>("connecting");
  const [loaded, setLoaded] = useState(false);
  const latest = useRef<{ company?: ShownCompany; agents: Agent[] }>({ agents: [] });

  // Each resource's reads are numbered: an answer older than one already shown is dropped, so two
  // overlapping re-reads can never leave the older state on screen.
  const asked = useRef<Record<Resource, number>>({
    company: 0,
    agents: 0,
    approvals: 0,
    connectors: 0,
    runs: 0,
    tasks: 0,
    budget: 0,
    messages: 0,
  });
  const read = useCallback(
    async (which: Resource[]) => {
      const params = { id: companyId };
      const fetchOne = async <T>(r: Resource, read: Promise<T>, show: (value: T) => void) => {
        const mine = ++asked.current[r];
        const value = await read;
        if (mine === asked.current[r]) show(value);
      };
      const jobs = which.map((r) => {
        switch (r) {
          case "company":
            return fetchOne(r, api.call("GET /api/companies/{id}", { params }), (c) => {
              latest.current.company = c;
              setCompany(c);
            });
          case "agents":
            return fetchOne(r, listAll(api, "GET /api/companies/{id}/agents", { params }), (a) => {
              latest.current.agents = a;
              setAgents(a);
            });
          case "connectors":
            return fetchOne(r, listAll(api, "GET /api/companies/{id}/connectors", { params }), setConnectors);
          case "approvals":
            return fetchOne(r, listAll(api, "GET /api/companies/{id}/approvals", { params }), setApprovals);
          case "runs":
            return fetchOne(r, listAll(api, "GET /api/companies/{id}/runs", { params }), setRuns);
          case "tasks":
            return fetchOne(r, listAll(api, "GET /api/companies/{id}/tasks", { params }), setTasks);
          case "budget":
            // The budget views read their own report; they re-read it when this changes.
            setBudgetVersion((v) => v + 1);
            return Promise.resolve();
          case "messages":
            // The thread reads its own messages; it re-reads them when this changes.
            setMessagesVersion((v) => v + 1);
            return Promise.resolve();
        }
      });
      try {
        await Promise.all(jobs);
        setError(undefined);
      } catch (e) {
        setError(e instanceof Error ? e.message : String(e));
      }
    },
    [api, companyId],
  );

  useEffect(() => {
    latest.current = { agents: [] };
    setCompany(undefined);
    setAgents([]);
    setLoaded(false);
    void read(ALL).then(() => setLoaded(true));
  }, [read]);

  const pending = useRef(new Set<Resource>());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const schedule = useCallback(
    (which: Iterable<Resource>) => {
      for (const r of which) pending.current.add(r);
      if (timer.current !== undefined) return;
      timer.current = setTimeout(() => {
        timer.current = undefined;
        const batch = [...pending.current];
        pending.current.clear();
        void read(batch);
      }, 120);
    },
    [read],
  );

  useEffect(() => {
    if (!loaded) return;
    const stop = new AbortController();
    const onMessages = (messages: unknown[]) => {
      const refetch = new Set<Resource>();
      for (const m of messages as FeedMessage[]) {
        const company = latest.current.company;
        // A run's first and terminal events (the lifecycle feed): the runs list, and what the
        // banner says is running, are re-read.
        if (m.kind === "agent_event") {
          refetch.add("runs");
          continue;
        }
        if (!company) continue;
        const effect = applyDomainEvent({ company, agents: latest.current.agents }, m);
        latest.current = { company: effect.snapshot.company, agents: effect.snapshot.agents };
        effect.refetch.forEach((r) => refetch.add(r));
      }
      setCompany(latest.current.company);
      setAgents(latest.current.agents);
      if (refetch.size > 0) schedule(refetch);
    };
    void followEvents({
      path: `/api/companies/${companyId}/events?kind=lifecycle`,
      token: api.token,
      onMessages,
      onStatus: setStream,
      onUnauthorized: () => void read(["company"]),
      signal: stop.signal,
    });
    return () => {
      stop.abort();
      if (timer.current !== undefined) clearTimeout(timer.current);
      timer.current = undefined;
    };
  }, [api, companyId, loaded, schedule]);

  const reload = useCallback((which: Resource[] = ALL) => void read(which), [read]);
  return {
    company,
    agents,
    connectors,
    approvals,
    runs,
    tasks,
    budgetVersion,
    messagesVersion,
    error,
    stream,
    reload,
  };
}
