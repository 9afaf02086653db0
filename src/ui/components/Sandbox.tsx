/**
 * The sandbox screen: discovered kinds on the left, the objects of the chosen
 * kind in the chosen namespace in the middle, the create panel on the right.
 * It owns the selection and refreshes the lists after its own writes.
 */

import { useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { useClient } from '../client-context';
import { useAsync } from '../hooks/useAsync';
import { choiceKey, collectionRef, defaultChoice, type ResourceChoice } from '../lib/resource-choice';
import { CreatePanel } from './CreatePanel';
import { ErrorNotice } from './ErrorNotice';
import { Header } from './Header';
import { NamespaceSelect } from './NamespaceSelect';
import { ObjectTable } from './ObjectTable';
import { ResourceNav } from './ResourceNav';

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' } as const;

export function Sandbox() {
  const client = useClient();
  const discovery = useAsync(() => client.discovery(), []);
  const namespaces = useAsync(() => client.list(NAMESPACES), []);
  const [picked, setPicked] = useState<ResourceChoice | undefined>(undefined);
  const [namespace, setNamespace] = useState('default');
  const [busyName, setBusyName] = useState<string | undefined>(undefined);
  const [actionError, setActionError] = useState<unknown>(undefined);

  const groupVersions = discovery.value?.groupVersions ?? [];
  const choice = picked ?? defaultChoice(groupVersions);
  const listable = choice?.resource.verbs.includes('list') ?? false;
  const objects = useAsync(
    () =>
      choice === undefined || !listable
        ? Promise.resolve(undefined)
        : client.list(collectionRef(choice, namespace)),
    [choice === undefined ? '' : choiceKey(choice), namespace],
  );
  const namespaceNames = (namespaces.value?.items ?? []).flatMap((ns) =>
    ns.metadata?.name === undefined ? [] : [ns.metadata.name],
  );

  function afterWrite(object: KubeObject) {
    objects.reload();
    if (object.kind === 'Namespace' || choice?.resource.name === 'namespaces') namespaces.reload();
  }

  async function remove(object: KubeObject) {
    const name = object.metadata?.name;
    if (choice === undefined || name === undefined) return;
    setBusyName(name);
    setActionError(undefined);
    try {
      await client.delete({ ...collectionRef(choice, object.metadata?.namespace ?? namespace), name });
      afterWrite({ kind: choice.resource.kind });
    } catch (error) {
      setActionError(error);
    } finally {
      setBusyName(undefined);
    }
  }

  return (
    <div className="app">
      <Header />
      <div className="layout">
        <aside className="sidebar">
          {discovery.error !== undefined ? (
            <ErrorNotice title="Discovery failed" error={discovery.error} />
          ) : null}
          {discovery.loading && discovery.value === undefined ? (
            <p role="status">Reading discovery…</p>
          ) : null}
          <ResourceNav groupVersions={groupVersions} selected={choice} onSelect={setPicked} />
        </aside>
        <main className="content" id="objects" tabIndex={-1}>
          <div className="toolbar">
            <h2>{choice === undefined ? 'Objects' : `${choice.resource.kind} (${choice.groupVersion})`}</h2>
            <NamespaceSelect
              namespaces={namespaceNames}
              value={namespace}
              disabled={choice !== undefined && !choice.resource.namespaced}
              onChange={setNamespace}
            />
            <button type="button" className="secondary" onClick={() => objects.reload()}>
              Refresh
            </button>
          </div>
          {namespaces.error !== undefined ? (
            <ErrorNotice title="Namespaces could not be listed" error={namespaces.error} />
          ) : null}
          {actionError !== undefined ? <ErrorNotice title="Not deleted" error={actionError} /> : null}
          {objects.error !== undefined ? <ErrorNotice title="Listing failed" error={objects.error} /> : null}
          {objects.loading && objects.value === undefined ? <p role="status">Loading…</p> : null}
          {choice !== undefined && !listable ? (
            <p className="muted">
              {choice.resource.name} cannot be listed; the server offers only:{' '}
              {choice.resource.verbs.join(', ') || 'no verbs'}.
            </p>
          ) : null}
          {choice !== undefined && objects.value !== undefined ? (
            <ObjectTable
              kindLabel={choice.resource.name}
              namespaced={choice.resource.namespaced}
              objects={objects.value.items}
              busyName={busyName}
              onDelete={(object) => void remove(object)}
            />
          ) : null}
        </main>
        <CreatePanel
          groupVersions={groupVersions}
          choice={choice}
          namespace={namespace}
          onCreated={afterWrite}
        />
      </div>
    </div>
  );
}
