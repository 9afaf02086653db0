/**
 * "Wire it up": creates (or replaces) the Validating or Mutating webhook
 * configuration that sends a chosen resource's writes to a backend, so a
 * learner can go from a declared backend to a denied request in one step.
 */

import { useId, useState } from 'react';
import { ApiError } from '../../client/index';
import type { KubeObject } from '../../api/meta';
import { useDiscovery } from '../app/DiscoveryContext';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import type { WebhookBackend } from './backend-api';
import { configurationFor, configurationName } from './wire';

export function WireUpCard({
  backends,
  selected,
}: {
  backends: WebhookBackend[];
  selected: string | undefined;
}) {
  const client = useClient();
  const id = useId();
  const { discovery } = useDiscovery();
  const [backend, setBackend] = useState<string>('');
  const [kind, setKind] = useState<'validating' | 'mutating'>('validating');
  const [target, setTarget] = useState('v1/pods');
  const [operations, setOperations] = useState('CREATE,UPDATE');
  const [failurePolicy, setFailurePolicy] = useState<'Fail' | 'Ignore'>('Fail');
  const [done, setDone] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const chosen = backend !== '' ? backend : (selected ?? backends[0]?.name ?? '');

  const admissionGroup =
    discovery?.groupVersions.find(
      (gv) => gv.group.startsWith('admissionregistration.') && gv.version === 'v1',
    )?.group ?? 'admissionregistration.k8s.io';

  async function wire() {
    setError(undefined);
    setDone(undefined);
    try {
      const b = backends.find((x) => x.name === chosen);
      if (b === undefined) throw new Error('choose a backend first');
      const parts = target.split('/');
      if (
        parts.length < 2 ||
        parts.length > 3 ||
        parts.some((p, i) => p === '' && !(parts.length === 3 && i === 0))
      )
        throw new Error('the resource is [group/]version/resource, e.g. v1/pods or apps/v1/deployments');
      const [group, version, resource] = parts.length === 3 ? parts : ['', ...parts];
      const object = configurationFor(
        b,
        {
          kind,
          group: group ?? '',
          version: version ?? '',
          resource: resource ?? '',
          operations: operations
            .split(',')
            .map((o) => o.trim())
            .filter((o) => o !== ''),
          failurePolicy,
          timeoutSeconds: 5,
        },
        admissionGroup,
      );
      const ref = {
        group: admissionGroup,
        version: 'v1',
        resource: kind === 'mutating' ? 'mutatingwebhookconfigurations' : 'validatingwebhookconfigurations',
      };
      try {
        await client.create(ref, object);
      } catch (e) {
        if (!(e instanceof ApiError) || e.code !== 409) throw e;
        const existing = await client.get<KubeObject>({ ...ref, name: configurationName(b.name) });
        await client.update(
          { ...ref, name: configurationName(b.name) },
          {
            ...object,
            metadata: { ...object.metadata, resourceVersion: existing.metadata?.resourceVersion },
          },
        );
      }
      setDone(
        `${kind === 'mutating' ? 'Mutating' : 'Validating'}WebhookConfiguration ${configurationName(b.name)} sends ${target} to ${b.name}.`,
      );
    } catch (e) {
      setError(e);
    }
  }

  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>Wire it up</h3>
      <div className="webhook-wire-grid">
        <label htmlFor={`${id}-backend`}>Backend</label>
        <select id={`${id}-backend`} value={chosen} onChange={(e) => setBackend(e.target.value)}>
          {backends.map((b) => (
            <option key={b.name} value={b.name}>
              {b.name}
            </option>
          ))}
        </select>
        <label htmlFor={`${id}-kind`}>As a</label>
        <select
          id={`${id}-kind`}
          value={kind}
          onChange={(e) => setKind(e.target.value as 'validating' | 'mutating')}
        >
          <option value="validating">ValidatingWebhookConfiguration</option>
          <option value="mutating">MutatingWebhookConfiguration</option>
        </select>
        <label htmlFor={`${id}-target`}>Resource ([group/]version/resource)</label>
        <input id={`${id}-target`} value={target} onChange={(e) => setTarget(e.target.value)} />
        <label htmlFor={`${id}-ops`}>Operations</label>
        <input id={`${id}-ops`} value={operations} onChange={(e) => setOperations(e.target.value)} />
        <label htmlFor={`${id}-policy`}>Failure policy</label>
        <select
          id={`${id}-policy`}
          value={failurePolicy}
          onChange={(e) => setFailurePolicy(e.target.value as 'Fail' | 'Ignore')}
        >
          <option value="Fail">Fail</option>
          <option value="Ignore">Ignore</option>
        </select>
      </div>
      <div className="row">
        <button type="button" onClick={() => void wire()} disabled={backends.length === 0}>
          Wire it up
        </button>
      </div>
      {done !== undefined ? (
        <p className="success" role="status">
          {done}
        </p>
      ) : null}
      {error !== undefined ? <ErrorNotice title="The configuration was not created" error={error} /> : null}
    </section>
  );
}
