/**
 * The owner chain of the object shown in the Explorer: the controllers
 * above it (Deployment → ReplicaSet → Pod) and what its controller made
 * below it, each a link to that object with a short state, read when the
 * panel opens and again on request (`owner-chain.ts`).
 */

import { useCallback, useEffect, useState } from 'react';
import type { KubeObject } from '../../api/meta';
import type { DiscoveredGroupVersion } from '../../client/index';
import { useClient } from '../client-context';
import { choiceParam } from '../lib/resource-choice';
import { routeHref } from '../lib/route';
import { ownerChain, type ChainLink, type HrefFor, type OwnerChain as Chain } from './owner-chain';

const hrefFor: HrefFor = (choice, ns, name) => routeHref('explorer', { kind: choiceParam(choice), ns, name });

interface Props {
  object: KubeObject;
  groupVersions: DiscoveredGroupVersion[];
}

function Link({ link, current }: { link: ChainLink; current?: boolean }) {
  const label = `${link.kind} ${link.name}`;
  return (
    <>
      {current === true || link.href === undefined ? (
        <strong aria-current={current === true ? 'true' : undefined}>{label}</strong>
      ) : (
        <a href={link.href}>{label}</a>
      )}
      {link.summary !== '' ? <span className="muted"> {link.summary}</span> : null}
    </>
  );
}

function Children({ links }: { links: ChainLink[] }) {
  if (links.length === 0) return null;
  return (
    <ul>
      {links.map((l) => (
        <li key={l.uid}>
          <Link link={l} />
          <Children links={l.children} />
        </li>
      ))}
    </ul>
  );
}

export function OwnerChain({ object, groupVersions }: Props) {
  const client = useClient();
  const [chain, setChain] = useState<Chain | undefined>(undefined);
  const uid = object.metadata?.uid;
  const resourceVersion = object.metadata?.resourceVersion;
  const read = useCallback(() => {
    void ownerChain(client, groupVersions, object, hrefFor).then(setChain, () => setChain(undefined));
    // Read again when the object changes (its resourceVersion), not on every render.
  }, [client, groupVersions, uid, resourceVersion]);
  useEffect(read, [read]);
  if (chain === undefined || (chain.ancestors.length === 0 && chain.self.children.length === 0)) return null;
  // Each ancestor nests the next; the object itself is the innermost level, its children below it.
  const nest = (i: number): React.ReactNode =>
    i < chain.ancestors.length ? (
      <ul>
        <li>
          <Link link={chain.ancestors[i] as ChainLink} />
          {nest(i + 1)}
        </li>
      </ul>
    ) : (
      <ul>
        <li>
          <Link link={chain.self} current />
          <Children links={chain.self.children} />
        </li>
      </ul>
    );
  return (
    <div className="owner-chain">
      <h3>
        Owner chain{' '}
        <button type="button" className="secondary small" onClick={read}>
          Refresh
        </button>
      </h3>
      <nav aria-label="Owner chain">{nest(0)}</nav>
    </div>
  );
}
