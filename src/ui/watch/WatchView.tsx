/**
 * The watch inspector: open any watch the API supports and see its raw
 * events as they arrive; pause, filter, and diff each MODIFIED against the
 * previous state. To see a 410 Gone and the relist that follows: press
 * "Reset watch cache" (what a server restart does), then restart the
 * watch from its first resourceVersion.
 */

import { useEffect, useMemo, useState } from 'react';
import { useClient } from '../client-context';
import { useDiscovery } from '../app/DiscoveryContext';
import type { ViewProps } from '../app/view-props';
import { useLiveNames } from '../hooks/useLiveNames';
import { choiceFromParam, listableChoices } from '../lib/resource-choice';
import { EventDetail } from './EventDetail';
import { EventFilter } from './EventFilter';
import { EventList } from './EventList';
import { HistoryControls } from './HistoryControls';
import { useWatchSession, type LineType } from './useWatchSession';
import { defaultWatchOptions, optionsFromParams, type WatchOptions } from './watch-options';
import { WatchOptionsForm } from './WatchOptionsForm';

const NAMESPACES = { group: '', version: 'v1', resource: 'namespaces' } as const;

export function WatchView({ params, active }: ViewProps) {
  const client = useClient();
  const groupVersions = useDiscovery().discovery?.groupVersions ?? [];
  const kinds = useMemo(
    () => listableChoices(groupVersions).filter((c) => c.resource.verbs.includes('watch')),
    [groupVersions],
  );
  const namespaces = useLiveNames(NAMESPACES);
  const session = useWatchSession(client);
  const [options, setOptions] = useState<WatchOptions>(defaultWatchOptions);
  const [selected, setSelected] = useState<number | undefined>(undefined);
  const [text, setText] = useState('');
  const [hidden, setHidden] = useState<ReadonlySet<LineType>>(new Set());
  const choice = choiceFromParam(groupVersions, options.kind);

  // A link (e.g. "Watch it" in the explorer, a lesson step) fills the form, and with start=1 starts the watch.
  const linkKey = JSON.stringify(params);
  const [handledLink, setHandledLink] = useState('{}');
  useEffect(() => {
    if (linkKey === handledLink || params['kind'] === undefined || groupVersions.length === 0) return;
    setHandledLink(linkKey);
    const next = optionsFromParams(params);
    setOptions(next);
    const linked = choiceFromParam(groupVersions, next.kind);
    if (params['start'] === '1' && linked !== undefined) session.start(linked, next);
  }, [linkKey, handledLink, params, groupVersions, session]);

  const needle = text.trim().toLowerCase();
  const visible = session.lines.filter(
    (line) =>
      !hidden.has(line.type) &&
      (needle === '' ||
        `${line.namespace ?? ''}/${line.name ?? ''}`.toLowerCase().includes(needle) ||
        line.object === undefined),
  );
  const selectedLine = session.lines.find((line) => line.seq === selected);

  return (
    <main className="watch-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <section className="watch-controls" aria-label="Watch">
        <h2>Watch inspector</h2>
        <WatchOptionsForm
          options={options}
          kinds={kinds}
          namespaces={namespaces}
          running={session.running}
          onChange={setOptions}
          onStart={() => {
            if (choice !== undefined) session.start(choice, options);
          }}
          onStop={session.stop}
        />
        <HistoryControls
          active={active}
          lastVersion={session.lastVersion}
          running={session.running}
          firstVersion={session.firstVersion}
          onNote={session.note}
          onRestartFrom={(rv) => {
            if (choice !== undefined) session.start(choice, options, rv);
          }}
        />
      </section>
      <section className="watch-stream" aria-label="Events">
        <div className="toolbar">
          <h3>
            Events{' '}
            <span className={`live-status ${session.running ? 'live-live' : ''}`}>
              <span className="live-dot" aria-hidden="true" />
              {session.running ? (session.paused ? 'paused' : 'streaming') : 'stopped'}
            </span>
          </h3>
          <button type="button" className="secondary" onClick={() => session.setPause(!session.paused)}>
            {session.paused ? `Resume (${session.buffered} buffered)` : 'Pause'}
          </button>
          <button type="button" className="secondary" onClick={session.clear}>
            Clear
          </button>
        </div>
        <EventFilter
          text={text}
          hidden={hidden}
          onText={setText}
          onToggle={(type) =>
            setHidden((current) => {
              const next = new Set(current);
              if (next.has(type)) next.delete(type);
              else next.add(type);
              return next;
            })
          }
        />
        <EventList lines={visible} selected={selected} onSelect={setSelected} />
      </section>
      <aside className="watch-detail">
        {selectedLine !== undefined && selectedLine.object !== undefined ? (
          <EventDetail line={selectedLine} />
        ) : (
          <p className="muted">
            Choose an event to see its object; a MODIFIED shows what changed since the previous state.
          </p>
        )}
      </aside>
    </main>
  );
}
