/**
 * The live object with its ownership: every field line carries the
 * managers that own it (colour and name, so colour is never the only cue);
 * fields owned by more than one manager are marked shared, and a list or
 * map owned as a whole (atomic) says so. Updated by a watch, so applies from
 * another tab show up too.
 */

import type { KubeObject } from '../../api/meta';
import { managerFields, ownershipLines } from './ownership';

interface Props {
  object: KubeObject | undefined;
  colorOf: (manager: string) => number;
  title: string;
}

export function OwnershipView({ object, colorOf, title }: Props) {
  if (object === undefined)
    return (
      <section className="ownership" aria-label="Ownership">
        <h3>{title}</h3>
        <p className="muted">The object does not exist yet: the first apply creates it.</p>
      </section>
    );
  const managers = managerFields(object.metadata?.managedFields ?? []);
  const lines = ownershipLines(object, managers);
  return (
    <section className="ownership" aria-label="Ownership">
      <h3>
        {title} <span className="muted">rv {object.metadata?.resourceVersion}</span>
      </h3>
      <ul className="legend" aria-label="Field managers">
        {managers.map((m) => (
          <li key={`${m.manager}-${m.operation}`} className={`owner-${colorOf(m.manager) % 8}`}>
            <span className="owner-swatch" aria-hidden="true" /> {m.manager}{' '}
            <span className="muted">({m.operation})</span>
          </li>
        ))}
        <li className="shared-legend">
          <span className="shared-mark">shared</span> owned by several managers
        </li>
      </ul>
      <div className="ownership-lines" tabIndex={0} aria-label="Fields and their owners">
        {lines.map((line, i) => {
          const shared = line.owners.length > 1;
          const className = [
            'own-line',
            line.owners.length === 1 ? `owned owner-${colorOf(line.owners[0] ?? '') % 8}` : '',
            shared ? 'shared' : '',
          ].join(' ');
          return (
            <div key={i} className={className} style={{ paddingLeft: `${line.depth * 1.1 + 0.4}rem` }}>
              <span className="own-key">{line.label}</span>
              {line.value !== undefined ? <span className="own-value"> {line.value}</span> : null}
              {line.owners.length > 0 ? (
                <span className="own-owners">
                  {line.owners.map((owner) => (
                    <span key={owner} className={`owner-chip owner-${colorOf(owner) % 8}`}>
                      {owner}
                    </span>
                  ))}
                  {shared ? <span className="shared-mark">shared</span> : null}
                  {line.whole ? <span className="muted"> (as a whole)</span> : null}
                </span>
              ) : null}
            </div>
          );
        })}
      </div>
    </section>
  );
}
