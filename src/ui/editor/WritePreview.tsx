/**
 * The preview of a write: the request that will be sent, the server's
 * dry-run answer (with its warnings, or its Status when it refuses), and a
 * diff of the stored object against what the server would store — where
 * defaulting, admission and apply merging become visible. Confirming sends
 * the same request without `dryRun`.
 */

import { useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { withQuery } from '../../client/index';
import { ErrorNotice } from '../common/ErrorNotice';
import { WarningList } from '../common/WarningList';
import { alignKeys, toYaml, withoutManagedFields } from '../lib/yaml-text';
import { MergeDiff } from './MergeDiff';
import type { Preview } from './useWriteFlow';

interface Props {
  preview: Preview;
  busy: boolean;
  /** The editor text changed since this preview: confirming would send the old text. */
  stale: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

export function WritePreview({ preview, busy, stale, onConfirm, onCancel }: Props) {
  const [showManaged, setShowManaged] = useState(false);
  const { plan } = preview;
  const shown = (object: KubeObject | undefined) =>
    object === undefined ? '' : toYaml(showManaged ? object : withoutManagedFields(object));
  return (
    <section className="write-preview" aria-label="Dry run preview">
      <h3>Dry run: what the server would store</h3>
      <p className="request-line">
        <code>
          {plan.method} {withQuery(plan.path, { ...plan.query, dryRun: 'All' })}
        </code>
        <span className="muted"> · {plan.contentType}</span>
      </p>
      <WarningList warnings={preview.warnings} />
      {preview.error !== undefined ? (
        <ErrorNotice title={`The server would refuse this ${plan.operation}`} error={preview.error} />
      ) : (
        <>
          <div className="diff-header">
            <span>
              {preview.stored === undefined
                ? 'Stored now: nothing (the object does not exist)'
                : `Stored now (resourceVersion ${preview.stored.metadata?.resourceVersion ?? '?'})`}
            </span>
            <span>After {plan.operation} (dryRun=All)</span>
          </div>
          <MergeDiff
            before={shown(preview.stored)}
            after={shown(alignKeys(preview.stored, preview.dryRun))}
            label="Stored object against the dry-run result"
          />
          <label className="inline">
            <input type="checkbox" checked={showManaged} onChange={(e) => setShowManaged(e.target.checked)} />{' '}
            Show managedFields in the diff
          </label>
        </>
      )}
      {stale ? (
        <p className="error-text" role="status">
          The text changed since this preview; press{' '}
          {plan.operation === 'create' ? 'Create' : plan.operation === 'update' ? 'Update' : 'Apply'}… again
          to preview it.
        </p>
      ) : null}
      <div className="row">
        <button type="button" disabled={busy || stale || preview.error !== undefined} onClick={onConfirm}>
          Confirm {plan.operation}
        </button>
        <button type="button" className="secondary" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </section>
  );
}
