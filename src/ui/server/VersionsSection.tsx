/**
 * Server → Versions: the specification's removed API versions on a
 * timeline. Pick a release from v1.16 to v1.29 and each old group/version
 * of a kind shows what that release does with it — not yet served, served,
 * deprecated (served with a Warning), removed — beside what to use instead,
 * from when, and what changes on the way; a last column says whether this
 * server (v1.27) serves it now, from discovery. States are told by text and
 * mark as well as colour. The chosen release is in the URL.
 */

import { useMemo } from 'react';
import { namingProfile } from '../../machinery/naming';
import { useDiscovery } from '../app/DiscoveryContext';
import { preferences } from '../lib/preferences';
import { routeHref } from '../lib/route';
import {
  countsAt,
  firstRelease,
  groupVersion,
  groupName,
  lastRelease,
  releaseLabel,
  removedApis,
  serverRelease,
  stateAt,
  stateText,
  type ApiState,
  type Minor,
  type RemovedApi,
} from './api-timeline';

const releases: Minor[] = Array.from({ length: lastRelease - firstRelease + 1 }, (_, i) => firstRelease + i);

const marks: Record<ApiState, string> = { 'not-yet': '○', served: '✓', deprecated: '!', removed: '✕' };

const meaning: Record<ApiState, string> = {
  served: 'served as is',
  deprecated:
    'still served, each request warned (Warning header) and counted (apiserver_requested_deprecated_apis)',
  removed: 'answers 404; stored objects stay readable through the replacement',
  'not-yet': 'not introduced yet',
};

export function releaseOf(params: Record<string, string>): Minor {
  const value = Number(params['release']);
  return Number.isInteger(value) && value >= firstRelease && value <= lastRelease ? value : serverRelease;
}

function StateBadge({ state }: { state: ApiState }) {
  return (
    <span className={`api-state state-${state}`}>
      <span aria-hidden="true">{marks[state]}</span> {stateText[state]}
    </span>
  );
}

/** Each release's state of one API as a strip of cells, the chosen release outlined; the text says the same. */
function LifeStrip({ api, release }: { api: RemovedApi; release: Minor }) {
  const deprecatedFrom = Math.max(api.deprecatedIn, firstRelease);
  return (
    <span className="life-strip">
      <span className="life-cells" aria-hidden="true">
        {releases.map((r) => (
          <span
            key={r}
            className={`life-cell state-${stateAt(api, r)}${r === release ? ' chosen' : ''}${r === serverRelease ? ' here' : ''}`}
            title={`${releaseLabel(r)}: ${stateText[stateAt(api, r)]}`}
          />
        ))}
      </span>
      <span className="life-text">
        {api.servedFrom > firstRelease ? `from ${releaseLabel(api.servedFrom)}, ` : ''}
        {api.deprecatedIn >= firstRelease
          ? `deprecated ${releaseLabel(deprecatedFrom)}`
          : `deprecated since ${releaseLabel(api.deprecatedIn)}`}
        , removed {releaseLabel(api.removedIn)}
      </span>
    </span>
  );
}

export function VersionsSection({ params }: { params: Record<string, string> }) {
  const release = releaseOf(params);
  const profile = useMemo(() => namingProfile(preferences.profile()), []);
  const { discovery } = useDiscovery();
  const counts = countsAt(release);

  const servedHere = (api: RemovedApi): boolean | undefined => {
    if (discovery === undefined) return undefined;
    const group = groupName(api.group, profile);
    return discovery.groupVersions.some(
      (gv) =>
        gv.group === group && gv.version === api.version && gv.resources.some((r) => r.kind === api.kind),
    );
  };
  // Replaced, not pushed: dragging the slider should not fill the history with every release passed.
  const setRelease = (next: Minor) =>
    location.replace(routeHref('server', { section: 'versions', release: String(next) }));
  const byRemoval = new Map<Minor, RemovedApi[]>();
  for (const api of removedApis) byRemoval.set(api.removedIn, [...(byRemoval.get(api.removedIn) ?? []), api]);

  return (
    <div className="versions-section">
      <p className="muted">
        Beta API versions are deprecated, then stop being served, a few releases after they appear (the
        deprecation policy); objects stored through them stay, read through the replacement. Pick a release to
        see what it does with each version the specification lists as removed.
      </p>
      <div className="release-picker">
        <label htmlFor="release-slider">Release</label>
        <input
          id="release-slider"
          type="range"
          min={firstRelease}
          max={lastRelease}
          step={1}
          value={release}
          aria-valuetext={releaseLabel(release)}
          onChange={(e) => setRelease(Number(e.target.value))}
        />
        <output htmlFor="release-slider" className="release-chosen" data-testid="chosen-release">
          {releaseLabel(release)}
        </output>
        <div className="release-ticks" role="group" aria-label="Releases">
          {releases.map((r) => (
            <button
              key={r}
              type="button"
              className={r === serverRelease ? 'here' : undefined}
              aria-pressed={r === release}
              onClick={() => setRelease(r)}
            >
              {r}
              {r === serverRelease ? <span className="visually-hidden"> (this server)</span> : null}
            </button>
          ))}
        </div>
      </div>
      <ul className="versions-legend" aria-label="Legend">
        {(['served', 'deprecated', 'removed', 'not-yet'] as const).map((state) => (
          <li key={state}>
            <StateBadge state={state} /> {meaning[state]}
          </li>
        ))}
        <li>
          <span className="here-mark">Served here</span> in this server's discovery now (it implements{' '}
          {releaseLabel(serverRelease)}, marked above each strip)
        </li>
      </ul>
      <p className="versions-summary" role="status" data-testid="versions-summary">
        At {releaseLabel(release)}: {counts.served} served, {counts.deprecated} deprecated, {counts.removed}{' '}
        removed
        {counts['not-yet'] > 0 ? `, ${counts['not-yet']} not yet served` : ''} of the {removedApis.length}{' '}
        versions listed.
      </p>
      <div className="versions-scroll" tabIndex={0} role="region" aria-label="Removed API versions">
        <table className="versions-table">
          <caption className="visually-hidden">
            API versions and their state at {releaseLabel(release)}
          </caption>
          <thead>
            <tr>
              <th scope="col">API version and kind</th>
              <th scope="col">At {releaseLabel(release)}</th>
              <th scope="col">This server</th>
              <th scope="col">v1.16 → v1.29</th>
              <th scope="col">Use instead</th>
              <th scope="col">Notable changes</th>
            </tr>
          </thead>
          {[...byRemoval].map(([removedIn, apis]) => (
            <tbody key={removedIn}>
              <tr className="removal-group">
                <th scope="rowgroup" colSpan={6}>
                  Stopped being served in {releaseLabel(removedIn)}
                </th>
              </tr>
              {apis.map((api) => {
                const gv = groupVersion(api.group, api.version, profile);
                const state = stateAt(api, release);
                const here = servedHere(api);
                const replacement = api.replacement;
                return (
                  <tr
                    key={`${gv} ${api.kind}`}
                    data-api={`${gv} ${api.kind}`}
                    data-state={state}
                    className={`row-${state}`}
                  >
                    <th scope="row" className="api-name">
                      <code>{gv}</code> <span className="api-kind">{api.kind}</span>
                    </th>
                    <td data-testid="state">
                      <StateBadge state={state} />
                    </td>
                    <td data-testid="served-here">
                      {here === undefined ? (
                        '…'
                      ) : here ? (
                        <span className="here-mark">Served here</span>
                      ) : (
                        <span className="muted">Not served</span>
                      )}
                    </td>
                    <td>
                      <LifeStrip api={api} release={release} />
                    </td>
                    <td>
                      {replacement !== undefined ? (
                        <>
                          <code>{groupVersion(replacement.group, replacement.version, profile)}</code>{' '}
                          {replacement.kind}
                          <br />
                          <span className={release < replacement.since ? 'warn-text' : 'muted'}>
                            {release < replacement.since
                              ? `not available until ${releaseLabel(replacement.since)}`
                              : `served since ${releaseLabel(replacement.since)}`}
                          </span>
                        </>
                      ) : (
                        api.instead
                      )}
                    </td>
                    <td>
                      {api.changes.length === 0 ? (
                        <span className="muted">none</span>
                      ) : (
                        <ul className="api-changes">
                          {api.changes.map((c) => (
                            <li key={c}>{c}</li>
                          ))}
                        </ul>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          ))}
        </table>
      </div>
    </div>
  );
}
