/**
 * Deleting one object, as a modal dialog: before anything is sent it names
 * the object and what the deletion reaches — its dependents (objects whose
 * ownerReferences point at it, which the garbage collector deletes or
 * orphans by the chosen propagation policy), a namespace's contents, and
 * the finalizers that will hold it in Terminating. After "Yes, delete" it
 * shows the server's answer and follows the object until it is gone, so
 * "terminating, waiting for finalizer X" is visible rather than a row that
 * silently stays. Esc or Cancel closes it without sending anything.
 */

import { useEffect, useRef, useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { ApiError, isStatus, type ObjectRef } from '../../client/index';
import { useClient } from '../client-context';
import { useDiscovery } from '../app/DiscoveryContext';
import { ErrorNotice } from '../common/ErrorNotice';
import { ProgressBar } from '../common/ProgressBar';
import { findReach, isNamespace, type Reach, type Related } from './dependents';

type Policy = 'Background' | 'Foreground' | 'Orphan';

const policies: { value: Policy; text: string }[] = [
  {
    value: 'Background',
    text: 'Background (default): the object goes now; the garbage collector then deletes its dependents.',
  },
  {
    value: 'Foreground',
    text: 'Foreground: the object stays, with the foregroundDeletion finalizer, until dependents that block it are gone.',
  },
  {
    value: 'Orphan',
    text: 'Orphan: the dependents stay, with this owner removed from their ownerReferences.',
  },
];

type Result =
  { state: 'gone' } | { state: 'terminating'; finalizers: string[] } | { state: 'failed'; error: unknown };

interface Props {
  objectRef: ObjectRef;
  kindLabel: string;
  /** `deleted` is true once the server accepted the deletion. */
  onClose: (deleted: boolean) => void;
}

export function DeleteConfirm({ objectRef, kindLabel, onClose }: Props) {
  const client = useClient();
  const groupVersions = useDiscovery().discovery?.groupVersions ?? [];
  const dialog = useRef<HTMLDialogElement>(null);
  const [object, setObject] = useState<KubeObject | undefined>(undefined);
  const [readError, setReadError] = useState<unknown>(undefined);
  const [search, setSearch] = useState<{ done: number; total: number }>({ done: 0, total: 0 });
  const [reach, setReach] = useState<Reach | undefined>(undefined);
  const [policy, setPolicy] = useState<Policy>('Background');
  const [sending, setSending] = useState(false);
  const [result, setResult] = useState<Result | undefined>(undefined);
  const title = `${kindLabel} ${objectRef.namespace === undefined ? '' : `${objectRef.namespace}/`}${objectRef.name}`;

  useEffect(() => {
    const element = dialog.current;
    if (element !== null && !element.open) element.showModal();
  }, []);

  // Read the object now (not the table's copy) and look for what its deletion reaches.
  useEffect(() => {
    let live = true;
    client.get(objectRef).then(
      async (value) => {
        if (!live) return;
        setObject(value);
        const found = await findReach(client, groupVersions, value, (done, total) => {
          if (live) setSearch({ done, total });
        });
        if (live) setReach(found);
      },
      (error: unknown) => live && setReadError(error),
    );
    return () => {
      live = false;
    };
    // Once per dialog: it is opened for one object.
  }, []);

  // After the deletion: follow the object until it is gone, showing which finalizers still hold it.
  const terminating = result?.state === 'terminating';
  useEffect(() => {
    if (!terminating) return;
    const timer = setInterval(() => {
      client.get(objectRef).then(
        (value) => setResult({ state: 'terminating', finalizers: finalizersOf(value) }),
        (error: unknown) => {
          if (error instanceof ApiError && error.code === 404) setResult({ state: 'gone' });
        },
      );
    }, 1000);
    return () => clearInterval(timer);
  }, [terminating]);

  async function remove() {
    setSending(true);
    try {
      const answer = await client.delete(objectRef, {
        apiVersion: 'v1',
        kind: 'DeleteOptions',
        propagationPolicy: policy,
      });
      // An object with a deletionTimestamp is still there: finalizers hold it. A Status means it is gone.
      if (!isStatus(answer) && answer.metadata?.deletionTimestamp != null)
        setResult({ state: 'terminating', finalizers: finalizersOf(answer) });
      else setResult({ state: 'gone' });
    } catch (error) {
      setResult({ state: 'failed', error });
    } finally {
      setSending(false);
    }
  }

  const close = () => onClose(result !== undefined && result.state !== 'failed');
  const finalizers = object === undefined ? [] : finalizersOf(object);
  return (
    <dialog
      ref={dialog}
      className="delete-dialog"
      aria-labelledby="delete-dialog-title"
      onCancel={(event) => {
        // Esc: close through React so the parent unmounts the dialog.
        event.preventDefault();
        close();
      }}
    >
      <h2 id="delete-dialog-title">{result === undefined ? `Delete ${title}?` : `Delete ${title}`}</h2>
      {readError !== undefined ? <ErrorNotice title="Could not read the object" error={readError} /> : null}
      {result === undefined ? (
        <>
          {object !== undefined && reach === undefined ? (
            <ProgressBar label="Looking for dependents in kinds" value={search.done} max={search.total} />
          ) : null}
          {reach !== undefined ? (
            <dl className="delete-reach">
              <dt>Dependents (ownerReferences pointing at it)</dt>
              <dd>
                <RelatedList items={reach.dependents} none="none: no object names it as its owner" />
              </dd>
              {reach.contents !== undefined ? (
                <>
                  <dt>Contents (the namespace controller deletes them first)</dt>
                  <dd>
                    <RelatedList items={reach.contents} none="none: the namespace is empty" />
                  </dd>
                </>
              ) : null}
              <dt>Finalizers that will hold it</dt>
              <dd>
                {finalizers.length === 0 ? (
                  <span className="muted">none: it goes as soon as the server accepts the deletion</span>
                ) : (
                  <>
                    {finalizers.map((f) => (
                      <code key={f}>{f}</code>
                    ))}{' '}
                    — it stays, Terminating, until each is removed.
                  </>
                )}
              </dd>
            </dl>
          ) : null}
          <fieldset className="delete-policy">
            <legend>propagationPolicy</legend>
            {policies.map((p) => (
              <label key={p.value} className="inline">
                <input
                  type="radio"
                  name="propagationPolicy"
                  value={p.value}
                  checked={policy === p.value}
                  onChange={() => setPolicy(p.value)}
                />{' '}
                {p.text}
              </label>
            ))}
          </fieldset>
          <div className="row">
            <button
              type="button"
              className="danger-solid"
              disabled={sending || readError !== undefined}
              onClick={() => void remove()}
            >
              Yes, delete
            </button>
            <button type="button" className="secondary" autoFocus onClick={close}>
              Cancel
            </button>
          </div>
        </>
      ) : (
        <>
          <div role="status" aria-live="polite">
            {result.state === 'gone' ? (
              <p className="success">
                Deleted {title}
                {policy === 'Orphan' ? '; its dependents were orphaned.' : '.'}
              </p>
            ) : result.state === 'terminating' ? (
              <p>
                {title} is terminating, waiting for finalizer
                {result.finalizers.length === 1 ? ' ' : 's '}
                {result.finalizers.map((f, i) => (
                  <span key={f}>
                    {i > 0 ? ', ' : ''}
                    <code>{f}</code>
                  </span>
                ))}
                . This dialog follows it until it is gone.
              </p>
            ) : null}
          </div>
          {result.state === 'failed' ? <ErrorNotice title="Not deleted" error={result.error} /> : null}
          <div className="row">
            <button type="button" autoFocus onClick={close}>
              Close
            </button>
          </div>
        </>
      )}
    </dialog>
  );
}

function RelatedList({ items, none }: { items: Related[]; none: string }) {
  if (items.length === 0) return <span className="muted">{none}</span>;
  const shown = items.slice(0, 12);
  return (
    <ul>
      {shown.map((item) => (
        <li key={`${item.kind}/${item.namespace ?? ''}/${item.name}`}>
          {item.kind} {item.namespace === undefined ? '' : `${item.namespace}/`}
          {item.name}
          {item.blocks ? <span className="muted"> (blockOwnerDeletion)</span> : null}
        </li>
      ))}
      {items.length > shown.length ? <li className="muted">and {items.length - shown.length} more</li> : null}
    </ul>
  );
}

/** metadata.finalizers, and for a namespace also spec.finalizers (what its controller must finish). */
function finalizersOf(object: KubeObject): string[] {
  const spec = isNamespace(object) ? (object['spec'] as { finalizers?: string[] } | undefined) : undefined;
  return [...(object.metadata?.finalizers ?? []), ...(spec?.finalizers ?? [])];
}
