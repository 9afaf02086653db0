/**
 * Where the commands copied from the request log point: the Node host's
 * URL (`npm run serve` prints it), the kubeconfig it writes with
 * `--kubeconfig`, and an optional bearer token for curl.
 */

import { useState } from 'react';
import { CodeBlock } from '../common/CodeBlock';
import { preferences } from '../lib/preferences';

export function NodeHostCard() {
  const [target, setTarget] = useState(() => preferences.nodeHost());
  const [saved, setSaved] = useState(false);
  return (
    <section className="card" aria-labelledby="node-heading">
      <h3 id="node-heading">Node host</h3>
      <p>The same server runs under Node, so kubectl and curl can reach it. Start it with:</p>
      <CodeBlock
        text="npm run serve -- --port 6443 --kubeconfig ./orch.kubeconfig"
        label="Start the Node host"
      />
      <form
        className="stack"
        onSubmit={(e) => {
          e.preventDefault();
          preferences.setNodeHost(target);
          setSaved(true);
        }}
      >
        <label>
          URL{' '}
          <input
            value={target.url}
            onChange={(e) => (setSaved(false), setTarget({ ...target, url: e.target.value }))}
          />
        </label>
        <label>
          kubeconfig{' '}
          <input
            value={target.kubeconfig}
            onChange={(e) => (setSaved(false), setTarget({ ...target, kubeconfig: e.target.value }))}
          />
        </label>
        <label>
          Bearer token (optional){' '}
          <input
            value={target.token ?? ''}
            onChange={(e) => {
              setSaved(false);
              const { token: _token, ...rest } = target;
              setTarget(e.target.value === '' ? rest : { ...rest, token: e.target.value });
            }}
          />
        </label>
        <button type="submit">Use for copied commands</button>
        {saved ? (
          <p className="success" role="status">
            Saved.
          </p>
        ) : null}
      </form>
    </section>
  );
}
