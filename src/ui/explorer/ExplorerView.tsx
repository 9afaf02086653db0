/**
 * The explorer, the first screen: discovered kinds on the left, the chosen
 * kind's objects in the chosen namespace in the middle (a live Table: list,
 * then watch), and on the right either the quick-create panel or the object
 * that was opened. What is shown lives in the route (`kind`, `ns`, `name`),
 * so every state of the screen is a link.
 */

import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { ApiError, type DiscoveredGroupVersion } from '../../client/index';
import { useClient } from '../client-context';
import { CourseCard } from './CourseCard';
import { useDiscovery } from '../app/DiscoveryContext';
import type { ViewProps } from '../app/view-props';
import { ErrorNotice } from '../common/ErrorNotice';
import { useLiveNames } from '../hooks/useLiveNames';
import { useNow } from '../hooks/useNow';
import {
  assumedDefaultCollection,
  choiceFromParam,
  choiceParam,
  collectionRef,
  defaultChoice,
  type ResourceChoice,
} from '../lib/resource-choice';
import { countText } from '../lib/count-text';
import { besideFirstScreen, firstScreenShown } from '../lib/first-screen';
import { navigate } from '../lib/route';
import { BulkDeleteBar } from './BulkDeleteBar';
import { CreatePanel } from './CreatePanel';
import { LiveStatus } from './LiveStatus';
import { allNamespaces, NamespaceSelect } from './NamespaceSelect';
import { ObjectTable } from './ObjectTable';
import { ResourceNav } from './ResourceNav';
import { SkeletonRows } from './SkeletonRows';
import { rowKey, type LiveRow } from './live-rows';
import { useLiveTable } from './useLiveTable';

const ObjectPanel = lazy(() => import('./ObjectPanel').then((m) => ({ default: m.ObjectPanel })));
// Only after a row's Delete: a modal dialog, so nothing on the screen moves while its code loads.
const DeleteConfirm = lazy(() => import('./DeleteConfirm').then((m) => ({ default: m.DeleteConfirm })));

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' } as const;
const noGroupVersions: DiscoveredGroupVersion[] = [];

/** "configmaps (v1)" from a route's `v1/configmaps` (ConfigMap by default, as defaultChoice picks). */
function headingFromParam(param: string | undefined): string {
  if (param === undefined || param === '') return 'ConfigMap (v1)';
  const slash = param.lastIndexOf('/');
  return slash < 0 ? param : `${param.slice(slash + 1)} (${param.slice(0, slash)})`;
}

export function ExplorerView({ params, active }: ViewProps) {
  const client = useClient();
  const discovery = useDiscovery();
  const groupVersions = discovery.discovery?.groupVersions ?? noGroupVersions;
  const kindParam = params['kind'];
  // One object while discovery and the route stay the same, so what depends on the choice is not redone per render.
  const choice = useMemo(
    () => choiceFromParam(groupVersions, kindParam) ?? defaultChoice(groupVersions),
    [groupVersions, kindParam],
  );
  const namespace = params['ns'] ?? 'default';
  const namespaced = choice?.resource.namespaced ?? false;
  const listable = choice?.resource.verbs.includes('list') ?? false;
  const listNamespace = namespace === allNamespaces ? '' : namespace;
  // Before discovery answers, the default kind's list already goes (its answer is most of the first screen).
  const discoveryPending = discovery.discovery === undefined && discovery.loading;
  const ref =
    choice === undefined || !listable
      ? discoveryPending
        ? assumedDefaultCollection(params['kind'], listNamespace)
        : undefined
      : collectionRef(choice, listNamespace);
  const table = useLiveTable(ref, true);
  // The picker's list is asked once the first screen is shown; until then it offers the route's namespace.
  const namespaceNames = useLiveNames(NAMESPACES, besideFirstScreen);
  const now = useNow(5000);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [busy, setBusy] = useState<ReadonlySet<string>>(new Set());
  const [actionError, setActionError] = useState<unknown>(undefined);
  const [confirming, setConfirming] = useState<LiveRow | undefined>(undefined);
  // Read from the store during render; nothing here walks the whole list (it may hold thousands).
  const rows = table.rows;
  const scopeKey = `${choice === undefined ? '' : choiceParam(choice)}|${namespace}`;

  useEffect(() => {
    setSelected(new Set());
    setActionError(undefined);
  }, [scopeKey]);

  const show = (patch: Record<string, string | undefined>) => navigate('explorer', { ...params, ...patch });
  const selectKind = useCallback(
    (next: ResourceChoice) =>
      navigate('explorer', { ...params, kind: choiceParam(next), name: undefined, objns: undefined }),
    [params],
  );
  const openName = params['name'];
  const openNamespace = params['objns'] ?? (namespace === allNamespaces ? undefined : namespace);
  const openRow =
    openName === undefined
      ? undefined
      : rows.get(rowKey({ metadata: { name: openName, namespace: namespaced ? openNamespace : undefined } }));

  /** The selected rows still listed, in list order. */
  function selectedRows(): LiveRow[] {
    const present = [...selected].flatMap((key) => rows.get(key) ?? []);
    return present.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async function remove(row: LiveRow): Promise<void> {
    if (choice === undefined) return;
    const name = row.object.metadata?.name ?? '';
    setBusy((current) => new Set(current).add(row.key));
    try {
      await client.delete({ ...collectionRef(choice, row.object.metadata?.namespace ?? ''), name });
    } finally {
      setBusy((current) => {
        const next = new Set(current);
        next.delete(row.key);
        return next;
      });
    }
  }

  async function removeSelected(progress: (done: number) => void) {
    const targets = selectedRows();
    const failed: { name: string; error: unknown }[] = [];
    let done = 0;
    for (const row of targets) {
      try {
        await remove(row);
      } catch (error) {
        failed.push({ name: row.object.metadata?.name ?? row.key, error });
      }
      progress(++done);
    }
    setSelected(new Set());
    return { failed };
  }

  const createNamespace = namespace === allNamespaces ? 'default' : namespace;
  // The names the Create template must avoid: the listed objects in the namespace it creates in.
  const createKeyPrefix = namespaced ? `${createNamespace}/` : '/';
  const isTaken = useCallback(
    (name: string) => rows.has(`${createKeyPrefix}${name}`),
    [rows, createKeyPrefix],
  );

  // Before discovery the route's kind is already known: name it rather than show a generic heading.
  const heading =
    choice !== undefined
      ? `${choice.resource.kind} (${choice.groupVersion})`
      : discoveryPending
        ? headingFromParam(params['kind'])
        : 'Objects';
  // The list's last attempt failed (it is retried); a 401/403 is a refusal, which retrying alone will not change.
  const failing = table.error !== undefined && table.phase === 'retrying';
  const refused =
    failing && table.error instanceof ApiError && (table.error.code === 401 || table.error.code === 403);
  // Nothing listed yet: under the error there is no state to show (no rows, count or empty-state text).
  const unlisted = failing && !table.listed;
  // Real data only: discovery as the server answers it now (not the tab's last one, shown until then), the list live.
  const usable =
    discovery.fresh && discovery.discovery !== undefined && (table.phase === 'live' || !listable);
  useEffect(() => {
    if (usable) firstScreenShown();
  }, [usable]);
  return (
    <div className="explorer" data-usable={usable ? 'true' : undefined}>
      <aside className="sidebar">
        {discovery.error !== undefined ? (
          <ErrorNotice title="Discovery failed" error={discovery.error} reveal={false} />
        ) : null}
        {discoveryPending ? (
          <ul className="skeleton-nav" aria-hidden="true">
            {[70, 55, 80, 60, 75, 50, 65, 58].map((w, i) => (
              <li key={i}>
                <span className="skeleton-bar" style={{ width: `${w}%` }} />
              </li>
            ))}
          </ul>
        ) : null}
        <ResourceNav groupVersions={groupVersions} selected={choice} onSelect={selectKind} />
      </aside>
      <main className="content" id={active ? 'main' : undefined} tabIndex={-1}>
        <div className="toolbar">
          <h2 title={heading}>{heading}</h2>
          <LiveStatus phase={table.phase} resourceVersion={table.resourceVersion} refused={refused} />
          {table.phase === 'listing' || table.phase === 'idle' || unlisted ? null : (
            <span className="muted object-count">
              {countText(rows.size)} {rows.size === 1 ? 'object' : 'objects'}
            </span>
          )}
          {choice !== undefined && !namespaced ? (
            // A cluster-scoped kind has no namespace to pick: say so rather than show a dead control.
            <span className="muted scope-note">cluster-scoped</span>
          ) : (
            <NamespaceSelect
              namespaces={namespaceNames}
              value={namespace}
              onChange={(ns) => show({ ns, name: undefined, objns: undefined })}
            />
          )}
          <button type="button" className="secondary" onClick={table.relist}>
            Refresh
          </button>
        </div>
        <CourseCard />
        <BulkDeleteBar
          count={selected.size}
          names={selectedRows().map((row) => row.object.metadata?.name ?? row.key)}
          onDelete={removeSelected}
          onClear={() => setSelected(new Set())}
        />
        {actionError !== undefined ? <ErrorNotice title="Not deleted" error={actionError} /> : null}
        {failing ? (
          // A refusal is no connection problem: the list is tried again (a grant makes it work), quietly.
          <ErrorNotice
            title={refused ? 'Listing failed' : 'Listing failed; retrying'}
            error={table.error}
            reveal={false}
          />
        ) : null}
        {discoveryPending || table.phase === 'listing' ? (
          <SkeletonRows
            status={
              discoveryPending ? 'Reading discovery (which kinds the server serves)…' : `Listing ${heading}…`
            }
          />
        ) : null}
        {choice !== undefined && !listable ? (
          <p className="muted">
            {choice.resource.name} cannot be listed; the server offers only:{' '}
            {choice.resource.verbs.join(', ') || 'no verbs'}.
          </p>
        ) : null}
        {choice !== undefined && listable && table.phase !== 'listing' && !unlisted ? (
          <ObjectTable
            kindLabel={choice.resource.name}
            columns={table.columns}
            rows={rows}
            version={table.version}
            showNamespace={namespaced && namespace === allNamespaces}
            selected={selected}
            openKey={openRow?.key}
            busyKeys={busy}
            now={now}
            onToggle={(key) =>
              setSelected((current) => {
                const next = new Set(current);
                if (next.has(key)) next.delete(key);
                else next.add(key);
                return next;
              })
            }
            onToggleAll={(all) => setSelected(all ? new Set(rows.keys()) : new Set())}
            onOpen={(row) => show({ name: row.object.metadata?.name, objns: row.object.metadata?.namespace })}
            onDelete={(row) => {
              setActionError(undefined);
              setConfirming(row);
            }}
          />
        ) : null}
        {confirming !== undefined && choice !== undefined ? (
          <Suspense fallback={null}>
            <DeleteConfirm
              objectRef={{
                ...collectionRef(choice, confirming.object.metadata?.namespace ?? ''),
                name: confirming.object.metadata?.name ?? '',
              }}
              kindLabel={choice.resource.kind}
              onClose={() => setConfirming(undefined)}
            />
          </Suspense>
        ) : null}
      </main>
      <aside className="side-panel">
        {openName !== undefined && choice !== undefined && refused && unlisted ? (
          // One explanation per refusal on screen: the list's says why this identity may not read here.
          <section className="refused-object" aria-label="Object">
            <p className="muted">
              <code>{openName}</code> is not shown: acting as this identity, the list of{' '}
              {choice.resource.name} is refused (see the explanation beside), and reading one object most
              likely is too.
            </p>
            <button
              type="button"
              className="secondary"
              onClick={() => show({ name: undefined, objns: undefined })}
            >
              Close
            </button>
          </section>
        ) : openName !== undefined && choice !== undefined ? (
          <Suspense fallback={<p role="status">Loading…</p>}>
            <ObjectPanel
              objectRef={{
                ...collectionRef(choice, openNamespace ?? ''),
                name: openName,
              }}
              kindLabel={choice.resource.kind}
              resourceVersion={openRow?.object.metadata?.resourceVersion}
              onClose={() => show({ name: undefined, objns: undefined })}
            />
          </Suspense>
        ) : (
          <CreatePanel
            groupVersions={groupVersions}
            choice={choice}
            namespace={createNamespace}
            shownNamespace={namespace}
            isTaken={isTaken}
            listVersion={table.version}
          />
        )}
      </aside>
    </div>
  );
}
