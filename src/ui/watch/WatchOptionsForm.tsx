/**
 * The form for a watch request: which kind and namespace, selectors, where
 * to start (the resourceVersion rules for watch), and the flags (bookmarks,
 * streaming list, timeout, relist on 410). Submitting starts the watch.
 */

import { useId, type FormEvent } from 'react';
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

/** Short enough for the select at 1280 px; the chosen one's meaning is spelled out under it. */
const startLabels: Record<StartAt, string> = {
  list: 'list, then watch',
  unset: 'resourceVersion unset',
  zero: 'resourceVersion=0',
  exact: 'from a resourceVersion',
};

const startMeaning: Record<StartAt, string> = {
  list: 'List first, then watch from the list’s resourceVersion.',
  unset: 'The current state as ADDED events, then the changes.',
  zero: 'The state at any version (the watch cache’s), then the changes.',
  exact: 'Only the changes after the resourceVersion you give.',
};

export function WatchOptionsForm({ options, kinds, namespaces, running, onChange, onStart, onStop }: Props) {
  const set = <K extends keyof WatchOptions>(key: K, value: WatchOptions[K]) =>
    onChange({ ...options, [key]: value });
  const choice = kinds.find((k) => choiceParam(k) === options.kind);
  const startHint = useId();
  return (
    <form
      className="watch-form"
      aria-label="Watch request"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onStart();
      }}
    >
      <label className="wide">
        Kind
        <select
          value={options.kind}
          title={choice === undefined ? undefined : `${choice.resource.kind} (${choice.groupVersion})`}
          onChange={(e) => set('kind', e.target.value)}
        >
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
      <label className="wide">
        labelSelector
        <input
          value={options.labelSelector}
          placeholder="app=web"
          onChange={(e) => set('labelSelector', e.target.value)}
        />
      </label>
      <label className="wide">
        fieldSelector
        <input
          value={options.fieldSelector}
          placeholder="metadata.name=example"
          onChange={(e) => set('fieldSelector', e.target.value)}
        />
      </label>
      <label className="wide">
        Start
        <select
          value={options.startAt}
          aria-describedby={startHint}
          onChange={(e) => set('startAt', e.target.value as StartAt)}
        >
          {(Object.keys(startLabels) as StartAt[]).map((key) => (
            <option key={key} value={key}>
              {startLabels[key]}
            </option>
          ))}
        </select>
      </label>
      <p className="muted wide watch-start-meaning" id={startHint}>
        {startMeaning[options.startAt]}
      </p>
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
