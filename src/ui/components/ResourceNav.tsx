/**
 * The discovered API: every served group version and its kinds, as a list of
 * buttons. Choosing one shows its objects.
 */

import type { DiscoveredGroupVersion } from '../../client/index';
import { choiceKey, type ResourceChoice } from '../lib/resource-choice';

interface Props {
  groupVersions: DiscoveredGroupVersion[];
  selected: ResourceChoice | undefined;
  onSelect: (choice: ResourceChoice) => void;
}

export function ResourceNav({ groupVersions, selected, onSelect }: Props) {
  const selectedKey = selected === undefined ? undefined : choiceKey(selected);
  return (
    <nav className="resource-nav" aria-label="API groups, versions and kinds">
      <h2>API</h2>
      {groupVersions.map((gv) => (
        <section key={gv.groupVersion} aria-label={gv.group === '' ? 'core group' : gv.group}>
          <h3>
            {gv.group === '' ? 'core' : gv.group} <span className="muted">{gv.version}</span>
            {gv.preferred ? null : <span className="muted"> (not preferred)</span>}
          </h3>
          <ul>
            {gv.resources.map((resource) => {
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
                    {resource.kind}
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </nav>
  );
}
