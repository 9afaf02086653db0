/**
 * `metadata.managedFields`, folded by default: the summary names each field
 * manager and its operation, the open fold shows the entries as YAML.
 */

import type { ManagedFieldsEntry } from '../../api/meta';
import { CodeBlock } from '../common/CodeBlock';
import { toYaml } from '../lib/yaml-text';

export function ManagedFieldsFold({ entries }: { entries: ManagedFieldsEntry[] }) {
  if (entries.length === 0)
    return <p className="muted">No managedFields (no field manager has written this object).</p>;
  const who = entries.map(
    (e) => `${e.manager ?? '?'} (${e.operation ?? '?'}${e.subresource ? ` ${e.subresource}` : ''})`,
  );
  return (
    <details className="managed-fields">
      <summary>
        managedFields — {entries.length} {entries.length === 1 ? 'entry' : 'entries'}: {who.join(', ')}
      </summary>
      <CodeBlock text={toYaml({ managedFields: entries })} label="managedFields" />
    </details>
  );
}
