/**
 * One object: its YAML with `metadata.managedFields` folded away (they are
 * long, and the apply lab shows them better), its relationships (namespace,
 * owners, and on request the objects that name it as their owner), a pod's
 * status (phase, conditions, containers and their logs), the Events about
 * it, and
 * links that open it in the other views ("Watch it" in a new tab, so the
 * watch runs beside the edits that cause its events), and a delete that
 * asks first. Read again whenever the live table sees a new
 * resourceVersion, so it never shows a stale object.
 */

import { useEffect, useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { resourcePath, type ObjectRef } from '../../client/index';
import { useClient } from '../client-context';
import { useDiscovery } from '../app/DiscoveryContext';
import { CodeBlock } from '../common/CodeBlock';
import { ErrorNotice } from '../common/ErrorNotice';
import { toYaml, withoutManagedFields } from '../lib/yaml-text';
import { routeHref } from '../lib/route';
import { DeleteConfirm } from './DeleteConfirm';
import { ManagedFieldsFold } from './ManagedFieldsFold';
import { ObjectEvents } from './ObjectEvents';
import { PodStatus } from './PodStatus';
import { OwnerChain } from './OwnerChain';
import { Relationships } from './Relationships';

interface Props {
  objectRef: ObjectRef;
  kindLabel: string;
  /** The resourceVersion the live table last saw; a change reads the object again. */
  resourceVersion: string | undefined;
  onClose: () => void;
}

export function ObjectPanel({ objectRef, kindLabel, resourceVersion, onClose }: Props) {
  const client = useClient();
  const groupVersions = useDiscovery().discovery?.groupVersions ?? [];
  const [object, setObject] = useState<KubeObject | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [deleting, setDeleting] = useState(false);
  const path = resourcePath(objectRef);

  useEffect(() => {
    let live = true;
    client.get(objectRef).then(
      (value) => {
        if (!live) return;
        setObject(value);
        setError(undefined);
      },
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
    };
    // path stands for objectRef.
  }, [client, path, resourceVersion]);

  const title = `${kindLabel} ${objectRef.namespace === undefined ? '' : `${objectRef.namespace}/`}${objectRef.name}`;
  const watchParams = {
    kind: `${objectRef.group === '' ? '' : `${objectRef.group}/`}${objectRef.version}/${objectRef.resource}`,
    ns: objectRef.namespace,
    fieldSelector: `metadata.name=${objectRef.name}`,
    start: '1',
  };
  return (
    <section className="object-panel" aria-label={title}>
      <div className="panel-heading">
        <h2>{title}</h2>
        <button
          type="button"
          className="secondary small"
          onClick={onClose}
          aria-label="Close the object view"
        >
          Close
        </button>
      </div>
      <p className="panel-links">
        <a href={routeHref('editor', { path })}>Edit in editor</a>
        <a
          href={routeHref('watch', watchParams)}
          target="_blank"
          rel="noopener"
          title="Opens the watch inspector in a new tab: keep it beside this one and watch your edits arrive"
        >
          Watch it (new tab)
        </a>
        <a href={routeHref('console', { method: 'GET', path })}>Open in console</a>
        <a href={routeHref('lab', { path })}>Open in apply lab</a>
        <button type="button" className="danger small" onClick={() => setDeleting(true)}>
          Delete…
        </button>
      </p>
      {deleting ? (
        <DeleteConfirm
          objectRef={objectRef}
          kindLabel={kindLabel}
          onClose={(deleted) => {
            setDeleting(false);
            // A deleted object has nothing left to show; one held by finalizers stays open, Terminating.
            if (deleted) void client.get(objectRef).catch(() => onClose());
          }}
        />
      ) : null}
      {error !== undefined ? (
        <ErrorNotice title="Could not read the object" error={error} reveal={false} />
      ) : null}
      {object === undefined ? (
        error === undefined ? (
          <p role="status">Reading…</p>
        ) : null
      ) : (
        <>
          <Relationships object={object} groupVersions={groupVersions} />
          <OwnerChain object={object} groupVersions={groupVersions} />
          {object.kind === 'Pod' ? <PodStatus object={object} /> : null}
          {object.kind !== 'Event' ? <ObjectEvents object={object} /> : null}
          <h3>YAML</h3>
          <CodeBlock text={toYaml(withoutManagedFields(object))} label={`YAML of ${title}`} />
          <ManagedFieldsFold entries={object.metadata?.managedFields ?? []} />
        </>
      )}
    </section>
  );
}
