/**
 * One field manager of the lab: its name, its applied configuration, and
 * the apply buttons (plain and forced) with the request they send. After
 * an apply it shows the answer (a 409's conflict and its ways out are shown
 * below the cards, where there is room for them).
 */

import { useId } from 'react';
import { withQuery } from '../../client/index';
import { ErrorNotice } from '../common/ErrorNotice';
import { WarningList } from '../common/WarningList';
import { applyRequest } from './apply-request';
import type { LabManager } from './lab-state';

interface Props {
  /** Marks the card for LabView's scroll-into-view after an apply. */
  reveal: string;
  manager: LabManager;
  colorIndex: number;
  objectPath: string | undefined;
  busy: boolean;
  canRemove: boolean;
  onChange: (manager: LabManager) => void;
  onApply: (force: boolean) => void;
  onRemove: () => void;
}

export function ManagerCard(props: Props) {
  const { manager, colorIndex, objectPath, busy } = props;
  const id = useId();
  const result = manager.result;
  const plain =
    objectPath === undefined ? undefined : applyRequest(objectPath, manager.name, manager.yaml, false);

  return (
    <section
      className={`manager-card owner-${colorIndex % 8}`}
      aria-labelledby={`${id}-name`}
      data-reveal={props.reveal}
    >
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
          <p className="error-text" role="status">
            409 Conflict on {result.causes.map((c) => c.field ?? '?').join(', ')}: the three ways out are
            below.
          </p>
        ) : null}
      </div>
    </section>
  );
}
