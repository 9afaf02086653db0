/**
 * The simulated cluster: each node with its status as `kubectl get nodes`
 * shows it (Ready, NotReady, SchedulingDisabled) and whether its node
 * agent runs, with a button to stop it (the node goes NotReady after its
 * grace period and its pods are evicted once their toleration has run
 * out) or start it again; and the settings — how many nodes, each node's
 * capacity and labels, and the speed of simulated durations.
 */

import { useEffect, useState } from 'react';
import type { Node } from '../../api/node';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';

interface Simulation {
  nodes: number;
  capacity: Record<string, string>;
  labels: Record<string, string>;
  speed: number | 'instant';
}

interface SimulatedNode {
  name: string;
  running: boolean;
}

const speeds: { label: string; value: number | 'instant' }[] = [
  { label: 'Real time (1×)', value: 1 },
  { label: 'Fast (10×)', value: 10 },
  { label: 'Instant', value: 'instant' },
];

function nodeStatus(node: Node | undefined): string {
  if (node === undefined) return 'not registered';
  const ready = node.status?.conditions?.find((c) => c.type === 'Ready')?.status;
  const status = ready === 'True' ? 'Ready' : ready === undefined ? 'Unknown' : 'NotReady';
  return node.spec?.unschedulable === true ? `${status},SchedulingDisabled` : status;
}

const labelText = (labels: Record<string, string>) =>
  Object.entries(labels)
    .map(([k, v]) => `${k}=${v}`)
    .join(',');

export function NodesCard({ active = true }: { active?: boolean }) {
  const client = useClient();
  const [simulated, setSimulated] = useState<SimulatedNode[] | undefined>(undefined);
  const [nodes, setNodes] = useState<Map<string, Node>>(new Map());
  const [settings, setSettings] = useState<Simulation | undefined>(undefined);
  const [form, setForm] = useState({ nodes: '3', cpu: '4', memory: '8Gi', pods: '110', labels: '' });
  const [error, setError] = useState<unknown>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);

  const load = async () => {
    try {
      const [agents, list, all] = await Promise.all([
        client.send<{ items: SimulatedNode[] }>('GET', '/sandbox/v1/nodes'),
        client.list<Node>({ group: '', version: 'v1', resource: 'nodes' }),
        client.send<{ simulation?: Simulation }>('GET', '/sandbox/v1/settings'),
      ]);
      setSimulated(agents.body.items);
      setNodes(new Map(list.items.map((n) => [n.metadata?.name ?? '', n])));
      setSettings(all.body.simulation);
    } catch (e) {
      setError(e);
    }
  };
  useEffect(() => {
    if (!active) return;
    void load();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, 3000);
    return () => clearInterval(timer);
    // load is new each render; what matters is whether the view is shown.
  }, [active]);
  useEffect(() => {
    if (settings === undefined) return;
    setForm({
      nodes: String(settings.nodes),
      cpu: settings.capacity['cpu'] ?? '',
      memory: settings.capacity['memory'] ?? '',
      pods: settings.capacity['pods'] ?? '',
      labels: labelText(settings.labels),
    });
  }, [JSON.stringify(settings)]);

  async function put(simulation: Partial<Simulation>, done: string) {
    setError(undefined);
    try {
      await client.send('PUT', '/sandbox/v1/settings', { body: { simulation } });
      setNote(done);
      await load();
    } catch (e) {
      setError(e);
    }
  }

  async function setRunning(name: string, running: boolean) {
    setError(undefined);
    try {
      await client.send(
        'POST',
        `/sandbox/v1/nodes/${encodeURIComponent(name)}/${running ? 'start' : 'stop'}`,
      );
      setNote(
        running
          ? `${name}: node agent started.`
          : `${name}: node agent stopped; the node goes NotReady after 40 s.`,
      );
      await load();
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section className="card" aria-labelledby="nodes-heading">
      <h3 id="nodes-heading">Nodes</h3>
      {settings === undefined && simulated !== undefined ? (
        <p className="muted">This server runs without a simulated cluster.</p>
      ) : null}
      {simulated === undefined ? (
        <p role="status">Reading the nodes…</p>
      ) : simulated.length === 0 ? (
        <p className="muted">No simulated nodes: pods stay Pending.</p>
      ) : (
        <table className="nodes-table">
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Status</th>
              <th scope="col">Node agent</th>
            </tr>
          </thead>
          <tbody>
            {simulated.map((n) => (
              <tr key={n.name}>
                <td>{n.name}</td>
                <td>{nodeStatus(nodes.get(n.name))}</td>
                <td>
                  {n.running ? 'running ' : 'stopped '}
                  <button
                    type="button"
                    className="secondary small"
                    onClick={() => void setRunning(n.name, !n.running)}
                    aria-label={`${n.running ? 'Stop' : 'Start'} the node agent of ${n.name}`}
                  >
                    {n.running ? 'Stop' : 'Start'}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {settings !== undefined ? (
        <>
          <form
            className="stack"
            onSubmit={(e) => {
              e.preventDefault();
              const labels: Record<string, string> = {};
              for (const part of form.labels
                .split(',')
                .map((p) => p.trim())
                .filter((p) => p !== '')) {
                const eq = part.indexOf('=');
                labels[eq < 0 ? part : part.slice(0, eq)] = eq < 0 ? '' : part.slice(eq + 1);
              }
              void put(
                {
                  nodes: Number(form.nodes),
                  capacity: { ...settings.capacity, cpu: form.cpu, memory: form.memory, pods: form.pods },
                  labels,
                },
                'Cluster settings saved.',
              );
            }}
          >
            <fieldset>
              <legend>Cluster</legend>
              <label>
                Nodes{' '}
                <input
                  value={form.nodes}
                  inputMode="numeric"
                  size={4}
                  onChange={(e) => setForm({ ...form, nodes: e.target.value })}
                />
              </label>
              <label>
                CPU per node{' '}
                <input
                  value={form.cpu}
                  size={6}
                  onChange={(e) => setForm({ ...form, cpu: e.target.value })}
                />
              </label>
              <label>
                Memory per node{' '}
                <input
                  value={form.memory}
                  size={8}
                  onChange={(e) => setForm({ ...form, memory: e.target.value })}
                />
              </label>
              <label>
                Pods per node{' '}
                <input
                  value={form.pods}
                  size={5}
                  onChange={(e) => setForm({ ...form, pods: e.target.value })}
                />
              </label>
              <label>
                Node labels{' '}
                <input
                  value={form.labels}
                  placeholder="disktype=ssd,zone=a"
                  onChange={(e) => setForm({ ...form, labels: e.target.value })}
                />
              </label>
              <button type="submit">Save cluster settings</button>
            </fieldset>
          </form>
          <fieldset>
            <legend>Speed</legend>
            <p className="muted">
              How fast image pulls and container starts pass. The clock times everything else.
            </p>
            {speeds.map((s) => (
              <label className="inline" key={String(s.value)}>
                <input
                  type="radio"
                  name="speed"
                  checked={settings.speed === s.value}
                  onChange={() => void put({ speed: s.value }, `Speed: ${s.label}.`)}
                />{' '}
                {s.label}
              </label>
            ))}
          </fieldset>
        </>
      ) : null}
      {note !== undefined ? (
        <p className="success" role="status">
          {note}
        </p>
      ) : null}
      {error !== undefined ? <ErrorNotice title="The cluster did not change" error={error} /> : null}
    </section>
  );
}
