/**
 * The discovered API: every served group version and its kinds, as a list
 * of buttons, with a filter box (there are about sixty built-in kinds).
 * Choosing one shows its objects; custom resources appear as they are
 * defined, since discovery is read again after each CRD change.
 */

import { memo, useState } from 'react';
import type { DiscoveredGroupVersion } from '../../client/index';
import { Breakable } from '../common/Breakable';
import { choiceKey, type ResourceChoice } from '../lib/resource-choice';

interface Props {
  groupVersions: DiscoveredGroupVersion[];
  selected: ResourceChoice | undefined;
  onSelect: (choice: ResourceChoice) => void;
}

/** Memoized: the explorer renders on every watch frame, and the list of kinds changes only with discovery. */
export const ResourceNav = memo(function ResourceNav({ groupVersions, selected, onSelect }: Props) {
  const [filter, setFilter] = useState('');
  const selectedKey = selected === undefined ? undefined : choiceKey(selected);
  const needle = filter.trim().toLowerCase();
  const matches = (gv: DiscoveredGroupVersion, kind: string, name: string) =>
    needle === '' ||
    kind.toLowerCase().includes(needle) ||
    name.includes(needle) ||
    gv.groupVersion.toLowerCase().includes(needle);
  return (
    <nav className="resource-nav" aria-label="API groups, versions and kinds">
      <h2>API</h2>
      <label className="kind-filter">
        <span className="visually-hidden">Filter kinds</span>
        <input
          type="search"
          placeholder="Filter kinds…"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      </label>
      {groupVersions.map((gv) => {
        const resources = gv.resources.filter((r) => matches(gv, r.kind, r.name));
        if (resources.length === 0) return null;
        return (
          <section key={gv.groupVersion} aria-label={gv.group === '' ? 'core group' : gv.group}>
            <h3>
              <Breakable text={gv.group === '' ? 'core' : gv.group} />{' '}
              <span className="muted">{gv.version}</span>
              {gv.preferred ? null : <span className="muted"> (not preferred)</span>}
            </h3>
            <ul>
              {resources.map((resource) => {
                const choice: ResourceChoice = {
                  group: gv.group,
                  version: gv.version,
                  groupVersion: gv.groupVersion,
                  resource,
                };
                const current = choiceKey(choice) === selectedKey;
                return (
                  <li key={resource.name}>
                    <button
                      type="button"
                      className="nav-item"
                      aria-current={current ? 'true' : undefined}
                      title={`${gv.groupVersion} ${resource.name}${resource.namespaced ? ' (namespaced)' : ' (cluster-scoped)'}`}
                      onClick={() => onSelect(choice)}
                    >
                      <Breakable text={resource.kind} />
                    </button>
                  </li>
                );
              })}
            </ul>
          </section>
        );
      })}
    </nav>
  );
});
