/**
 * What an update's 409 ("the object has been modified") offers: the object
 * was written by someone else since the editor loaded it, so the PUT's
 * resourceVersion is stale. It shows the three versions as a three-way
 * diff — your change (loaded → your text) and theirs (loaded → stored now),
 * both against the common base — and offers to reload the stored object
 * and re-apply your change onto it (an object-level merge; fields both
 * sides changed keep yours and are listed), or to discard your change.
 */

import { useEffect, useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { parseManifest } from '../lib/manifest';
import { toYaml, withoutManagedFields } from '../lib/yaml-text';
import { MergeDiff } from './MergeDiff';
import { threeWayMerge, type Merged } from './three-way';

export interface Base {
  /** What the editor loaded or last received from a write; unset for a template or given text. */
  object: KubeObject | undefined;
  /** The text the editor showed for it. */
  text: string;
  /** Where it came from, as the editor's heading says it. */
  label: string;
  /** The API path it was read from, if any. */
  path: string | undefined;
}

interface Props {
  base: Base;
  mine: string;
  objectPath: string;
  onReapply: (text: string, theirs: KubeObject) => void;
  onDiscard: (theirs: KubeObject) => void;
}

export function UpdateConflict({ base, mine, objectPath, onReapply, onDiscard }: Props) {
  const client = useClient();
  const [theirs, setTheirs] = useState<KubeObject | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);

  useEffect(() => {
    let live = true;
    client.send<KubeObject>('GET', objectPath).then(
      (answer) => live && setTheirs(answer.body),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
  }, [client, objectPath]);

  let merged: Merged | undefined;
  let mergeError: unknown;
  if (theirs !== undefined) {
    try {
      const loaded = base.object === undefined ? undefined : withoutManagedFields(base.object);
      merged = threeWayMerge(loaded, parseManifest(mine), withoutManagedFields(theirs));
    } catch (e) {
      mergeError = e;
    }
  }
  const baseRv = base.object?.metadata?.resourceVersion ?? '?';
  const theirsText = theirs === undefined ? '' : toYaml(withoutManagedFields(theirs));
  return (
    <section className="update-conflict" aria-label="Update conflict">
      <h3>409 Conflict: the object changed since you loaded it</h3>
      <p>
        Your update carries resourceVersion {baseRv}; the server has{' '}
        {theirs?.metadata?.resourceVersion ?? '…'} now, so it refused to overwrite a change you have not seen.
      </p>
      {error !== undefined ? <ErrorNotice title="Could not read the stored object" error={error} /> : null}
      {mergeError !== undefined ? (
        <ErrorNotice title="Your text cannot be merged" error={mergeError} />
      ) : null}
      {theirs !== undefined ? (
        <>
          <div className="diff-header">
            <span>Loaded (rv {baseRv})</span>
            <span>Your text</span>
          </div>
          <MergeDiff before={base.text} after={mine} label="Your change: loaded against your text" />
          <div className="diff-header">
            <span>Loaded (rv {baseRv})</span>
            <span>Stored now (rv {theirs.metadata?.resourceVersion ?? '?'})</span>
          </div>
          <MergeDiff
            before={base.object === undefined ? '' : base.text}
            after={theirsText}
            label="Their change: loaded against stored now"
          />
          {merged !== undefined && merged.conflicts.length > 0 ? (
            <p className="error-text">
              Both changed {merged.conflicts.map((c) => c).join(', ')}: re-applying keeps yours.
            </p>
          ) : null}
        </>
      ) : error === undefined ? (
        <p role="status">Reading the stored object…</p>
      ) : null}
      <div className="row">
        <button
          type="button"
          disabled={merged === undefined || theirs === undefined}
          onClick={() =>
            merged !== undefined && theirs !== undefined && onReapply(toYaml(merged.object), theirs)
          }
        >
          Reload the stored object and re-apply my change
        </button>
        <button
          type="button"
          className="secondary"
          disabled={theirs === undefined}
          onClick={() => theirs !== undefined && onDiscard(theirs)}
        >
          Discard my change
        </button>
      </div>
    </section>
  );
}
