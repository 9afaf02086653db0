/**
 * The editor's controls: the three writes (each opens a dry-run preview),
 * the field manager and force flag for apply, the fieldValidation level,
 * a template picker and a button that strips server-set fields.
 */

import type { ResourceChoice } from '../lib/resource-choice';
import { choiceParam } from '../lib/resource-choice';
import type { Operation, WriteOptions } from './write-plan';

interface Props {
  options: WriteOptions;
  busy: boolean;
  kinds: ResourceChoice[];
  onOptions: (options: WriteOptions) => void;
  onStart: (operation: Operation) => void;
  onTemplate: (choice: ResourceChoice) => void;
  onStrip: () => void;
}

export function EditorToolbar({ options, busy, kinds, onOptions, onStart, onTemplate, onStrip }: Props) {
  return (
    <div className="editor-toolbar">
      <div className="row" role="group" aria-label="Write">
        <button type="button" disabled={busy} onClick={() => onStart('create')}>
          Create…
        </button>
        <button type="button" disabled={busy} onClick={() => onStart('update')}>
          Update…
        </button>
        <button type="button" disabled={busy} onClick={() => onStart('apply')}>
          Apply…
        </button>
      </div>
      <label>
        Field manager{' '}
        <input
          value={options.fieldManager}
          size={14}
          onChange={(e) => onOptions({ ...options, fieldManager: e.target.value })}
        />
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={options.force}
          onChange={(e) => onOptions({ ...options, force: e.target.checked })}
        />{' '}
        force (apply)
      </label>
      <label>
        fieldValidation{' '}
        <select
          value={options.fieldValidation}
          onChange={(e) =>
            onOptions({ ...options, fieldValidation: e.target.value as WriteOptions['fieldValidation'] })
          }
        >
          <option value="">default (Warn)</option>
          <option value="Strict">Strict</option>
          <option value="Warn">Warn</option>
          <option value="Ignore">Ignore</option>
        </select>
      </label>
      <label>
        New{' '}
        <select
          value=""
          onChange={(e) => {
            const choice = kinds.find((k) => choiceParam(k) === e.target.value);
            if (choice !== undefined) onTemplate(choice);
          }}
        >
          <option value="">template…</option>
          {kinds.map((k) => (
            <option key={choiceParam(k)} value={choiceParam(k)}>
              {k.resource.kind} ({k.groupVersion})
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="secondary small" onClick={onStrip}>
        Strip server fields
      </button>
    </div>
  );
}
