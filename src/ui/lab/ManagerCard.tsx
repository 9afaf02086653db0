/**
 * One field manager of the lab: its name, its applied configuration, and
 * the apply buttons (plain and forced) with the request they send. After
 * an apply it shows the answer; after a 409, the conflict and its three
 * ways out.
 */

import { useId } from 'react';
import type { KubeObject } from '../../api/meta';
import { withQuery } from '../../client/index';
import { ErrorNotice } from '../common/ErrorNotice';
import { WarningList } from '../common/WarningList';
import { adoptFields, applyRequest, dropFields } from './apply-request';
import { ConflictWays, type Way } from './ConflictWays';
import type { LabManager } from './lab-state';

interface Props {
  manager: LabManager;
  colorIndex: number;
  objectPath: string | undefined;
  live: KubeObject | undefined;
  busy: boolean;
  canRemove: boolean;
  onChange: (manager: LabManager) => void;
  onApply: (force: boolean) => void;
  onWay: (way: Way) => void;
  onRemove: () => void;
}

export function ManagerCard(props: Props) {
  const { manager, colorIndex, objectPath, live, busy } = props;
  const id = useId();
  const result = manager.result;
  const plain =
    objectPath === undefined ? undefined : applyRequest(objectPath, manager.name, manager.yaml, false);

  let ways: Way[] = [];
  if (result?.kind === 'conflict' && objectPath !== undefined) {
    const fields = result.causes.flatMap((c) => (c.field === undefined ? [] : [c.field]));
    const safely = (edit: () => string) => {
      try {
        return edit();
      } catch {
        return manager.yaml;
      }
    };
    const dropped = safely(() => dropFields(manager.yaml, fields));
    const adopted = safely(() => adoptFields(manager.yaml, fields, live));
    ways = [
      {
        id: 'force',
        title: 'Force',
        explanation: `Send again with force=true: ${manager.name} takes the fields over and they leave the other managers’ entries.`,
        request: applyRequest(objectPath, manager.name, manager.yaml, true),
        yaml: manager.yaml,
      },
      {
        id: 'drop',
        title: 'Drop the fields',
        explanation: `Remove them from ${manager.name}’s configuration: it releases them and the other managers keep their values.`,
        request: applyRequest(objectPath, manager.name, dropped, false),
        yaml: dropped,
      },
      {
        id: 'adopt',
        title: "Adopt the server's values",
        explanation: `Set them to the values on the server: ${manager.name} then shares ownership, and any later change by either conflicts.`,
        request: applyRequest(objectPath, manager.name, adopted, false),
        yaml: adopted,
      },
    ];
  }

  return (
    <section className={`manager-card owner-${colorIndex % 8}`} aria-labelledby={`${id}-name`}>
      <div className="manager-heading">
        <span className="owner-swatch" aria-hidden="true" />
        <label id={`${id}-name`}>
          Field manager{' '}
          <input
            value={manager.name}
            size={10}
            onChange={(e) => props.onChange({ ...manager, name: e.target.value, result: undefined })}
          />
        </label>
        {props.canRemove ? (
          <button
            type="button"
            className="secondary small"
            aria-label={`Remove manager ${manager.name}`}
            onClick={props.onRemove}
          >
            ✕
          </button>
        ) : null}
      </div>
      <label className="config-label" htmlFor={`${id}-yaml`}>
        Applied configuration of {manager.name}
      </label>
      <textarea
        id={`${id}-yaml`}
        className="config"
        value={manager.yaml}
        spellCheck={false}
        rows={10}
        onChange={(e) => props.onChange({ ...manager, yaml: e.target.value })}
      />
      <div className="row">
        <button
          type="button"
          disabled={busy || objectPath === undefined}
          onClick={() => props.onApply(false)}
        >
          Apply as {manager.name}
        </button>
        <button
          type="button"
          className="secondary"
          disabled={busy || objectPath === undefined}
          onClick={() => props.onApply(true)}
        >
          Force apply
        </button>
      </div>
      {plain !== undefined ? (
        <code className="request-line">
          {plain.method} {withQuery(plain.path, plain.query)}
        </code>
      ) : (
        <p className="muted">The configuration needs apiVersion, kind and metadata.name of a served kind.</p>
      )}
      <div aria-live="polite">
        {result?.kind === 'ok' ? (
          <p className="success" role="status">
            {result.forced ? 'Forced' : 'Applied'}: HTTP {result.status}, resourceVersion{' '}
            {result.resourceVersion}
          </p>
        ) : null}
        {result?.kind === 'ok' ? <WarningList warnings={result.warnings} /> : null}
        {result?.kind === 'error' ? (
          <ErrorNotice title={`${manager.name}’s apply failed`} error={result.error} />
        ) : null}
        {result?.kind === 'conflict' ? (
          <ConflictWays
            manager={manager.name}
            causes={result.causes}
            ways={ways}
            busy={busy}
            onChoose={props.onWay}
          />
        ) : null}
      </div>
    </section>
  );
}
