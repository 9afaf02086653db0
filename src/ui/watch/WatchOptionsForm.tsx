/**
 * The form for a watch request: which kind and namespace, selectors, where
 * to start (the resourceVersion rules for watch), and the flags (bookmarks,
 * streaming list, timeout, relist on 410). Submitting starts the watch.
 */

import type { FormEvent } from 'react';
import { choiceParam, type ResourceChoice } from '../lib/resource-choice';
import type { StartAt, WatchOptions } from './watch-options';

interface Props {
  options: WatchOptions;
  kinds: ResourceChoice[];
  namespaces: string[];
  running: boolean;
  onChange: (options: WatchOptions) => void;
  onStart: () => void;
  onStop: () => void;
}

const startLabels: Record<StartAt, string> = {
  list: 'list first, then watch from its resourceVersion',
  unset: 'resourceVersion unset (current state as ADDED, then changes)',
  zero: 'resourceVersion=0 (state at any version, then changes)',
  exact: 'a resourceVersion (changes after it)',
};

export function WatchOptionsForm({ options, kinds, namespaces, running, onChange, onStart, onStop }: Props) {
  const set = <K extends keyof WatchOptions>(key: K, value: WatchOptions[K]) =>
    onChange({ ...options, [key]: value });
  const choice = kinds.find((k) => choiceParam(k) === options.kind);
  return (
    <form
      className="watch-form"
      aria-label="Watch request"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onStart();
      }}
    >
      <label>
        Kind
        <select value={options.kind} onChange={(e) => set('kind', e.target.value)}>
          {kinds.map((k) => (
            <option key={choiceParam(k)} value={choiceParam(k)}>
              {k.resource.kind} ({k.groupVersion})
            </option>
          ))}
        </select>
      </label>
      <label>
        Namespace
        <input
          list="watch-namespaces"
          value={options.namespace}
          disabled={choice !== undefined && !choice.resource.namespaced}
          placeholder="all namespaces"
          onChange={(e) => set('namespace', e.target.value)}
        />
        <datalist id="watch-namespaces">
          {namespaces.map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
      </label>
      <label>
        labelSelector
        <input
          value={options.labelSelector}
          placeholder="app=web"
          onChange={(e) => set('labelSelector', e.target.value)}
        />
      </label>
      <label>
        fieldSelector
        <input
          value={options.fieldSelector}
          placeholder="metadata.name=example"
          onChange={(e) => set('fieldSelector', e.target.value)}
        />
      </label>
      <label className="wide">
        Start
        <select value={options.startAt} onChange={(e) => set('startAt', e.target.value as StartAt)}>
          {(Object.keys(startLabels) as StartAt[]).map((key) => (
            <option key={key} value={key}>
              {startLabels[key]}
            </option>
          ))}
        </select>
      </label>
      {options.startAt === 'exact' ? (
        <label>
          resourceVersion
          <input value={options.resourceVersion} onChange={(e) => set('resourceVersion', e.target.value)} />
        </label>
      ) : null}
      <label>
        resourceVersionMatch
        <select
          value={options.resourceVersionMatch}
          onChange={(e) =>
            set('resourceVersionMatch', e.target.value as WatchOptions['resourceVersionMatch'])
          }
        >
          <option value="">unset</option>
          <option value="NotOlderThan">NotOlderThan</option>
          <option value="Exact">Exact</option>
        </select>
      </label>
      <label>
        timeoutSeconds
        <input
          value={options.timeoutSeconds}
          inputMode="numeric"
          size={5}
          onChange={(e) => set('timeoutSeconds', e.target.value)}
        />
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={options.allowWatchBookmarks}
          onChange={(e) => set('allowWatchBookmarks', e.target.checked)}
        />{' '}
        allowWatchBookmarks
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={options.sendInitialEvents}
          onChange={(e) => set('sendInitialEvents', e.target.checked)}
        />{' '}
        sendInitialEvents (needs the WatchList gate)
      </label>
      <label className="inline">
        <input
          type="checkbox"
          checked={options.relistOnGone}
          onChange={(e) => set('relistOnGone', e.target.checked)}
        />{' '}
        relist on 410 Gone
      </label>
      <div className="row">
        {/* Until discovery has named the kinds there is nothing to watch: the button waits rather than do nothing. */}
        <button type="submit" disabled={kinds.length === 0}>
          {running ? 'Restart watch' : 'Start watch'}
        </button>
        <button type="button" className="secondary" disabled={!running} onClick={onStop}>
          Stop
        </button>
      </div>
    </form>
  );
}
