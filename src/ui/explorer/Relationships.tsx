/**
 * How an object relates to others: the namespace it lives in, the owners
 * its ownerReferences name (the garbage collector deletes it after them),
 * its finalizers, and, on request, its dependents: objects of any kind in
 * the same scope whose ownerReferences carry its uid (found as the delete
 * confirmation finds them, in `dependents.ts`).
 */

import { useState } from 'react';
import type { KubeObject } from '../../api/meta';
import type { DiscoveredGroupVersion } from '../../client/index';
import { useClient } from '../client-context';
import { ProgressBar } from '../common/ProgressBar';
import { choiceForKind, choiceParam } from '../lib/resource-choice';
import { routeHref } from '../lib/route';
import { findReach, type Related } from './dependents';

interface Props {
  object: KubeObject;
  groupVersions: DiscoveredGroupVersion[];
}

export function Relationships({ object, groupVersions }: Props) {
  const client = useClient();
  const namespace = object.metadata?.namespace;
  const owners = object.metadata?.ownerReferences ?? [];
  const finalizers = object.metadata?.finalizers ?? [];
  const [search, setSearch] = useState<{ done: number; total: number } | undefined>(undefined);
  const [dependents, setDependents] = useState<Related[] | undefined>(undefined);
  const namespacesChoice = choiceForKind(groupVersions, 'v1', 'Namespace');

  async function findDependents() {
    const found = await findReach(client, groupVersions, object, (done, total) => setSearch({ done, total }));
    setSearch(undefined);
    setDependents(found.dependents);
  }

  return (
    <div className="relationships">
      <h3>Relationships</h3>
      <dl>
        <dt>Namespace</dt>
        <dd>
          {namespace === undefined ? (
            <span className="muted">none (cluster-scoped)</span>
          ) : namespacesChoice === undefined ? (
            namespace
          ) : (
            <a href={routeHref('explorer', { kind: choiceParam(namespacesChoice), name: namespace })}>
              {namespace}
            </a>
          )}
        </dd>
        <dt>Owners</dt>
        <dd>
          {owners.length === 0 ? (
            <span className="muted">none</span>
          ) : (
            <ul>
              {owners.map((owner) => {
                const choice = choiceForKind(groupVersions, owner.apiVersion, owner.kind);
                const label = `${owner.kind} ${owner.name}${owner.controller === true ? ' (controller)' : ''}`;
                return (
                  <li key={owner.uid}>
                    {choice === undefined ? (
                      label
                    ) : (
                      <a
                        href={routeHref('explorer', {
                          kind: choiceParam(choice),
                          ns: namespace,
                          name: owner.name,
                        })}
                      >
                        {label}
                      </a>
                    )}{' '}
                    <span className="muted">uid {owner.uid}</span>
                  </li>
                );
              })}
            </ul>
          )}
        </dd>
        <dt>Finalizers</dt>
        <dd>{finalizers.length === 0 ? <span className="muted">none</span> : finalizers.join(', ')}</dd>
        <dt>Dependents</dt>
        <dd>
          {search !== undefined ? (
            <ProgressBar label="Searching kinds" value={search.done} max={search.total} />
          ) : dependents === undefined ? (
            <button type="button" className="secondary small" onClick={() => void findDependents()}>
              Find dependents
            </button>
          ) : dependents.length === 0 ? (
            <span className="muted">none found</span>
          ) : (
            <ul>
              {dependents.map((d) => (
                <li key={`${d.kind}/${d.namespace ?? ''}/${d.name}`}>
                  <a href={d.href}>
                    {d.kind} {d.name}
                  </a>
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </div>
  );
}
