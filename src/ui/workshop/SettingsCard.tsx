/**
 * The server's settings (`/sandbox/v1/settings`): the naming profile
 * (orch or kubernetes group names; switching re-registers the worker with
 * the other profile, whose state is kept apart), the history window after
 * which Exact lists from older versions get 410 Gone, the API versions
 * served (`--runtime-config`, e.g. the alpha ValidatingAdmissionPolicy) and
 * the feature gates (FeatureGatesFieldset.tsx).
 */

import { useEffect, useState } from 'react';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { preferences, type ProfilePreference } from '../lib/preferences';
import { PROFILES } from '../../machinery/naming';
import { FeatureGatesFieldset } from './FeatureGatesFieldset';
import { stateReplacedEvent } from './state-file';

interface Settings {
  profile: string;
  compactionIntervalMs: number;
  featureGates: Record<string, boolean>;
  runtimeConfig: string;
  revision: number;
  compactedRevision: number;
}

const windows = [
  { label: '10 s', ms: 10_000 },
  { label: '1 min', ms: 60_000 },
  { label: '5 min (default)', ms: 300_000 },
];

/** `active`: the view is shown; the revision moves with every write, so it is read again then and every few seconds. */
export function SettingsCard({ active = true }: { active?: boolean }) {
  const client = useClient();
  const [settings, setSettings] = useState<Settings | undefined>(undefined);
  const [seconds, setSeconds] = useState('');
  // undefined: shows the server's value; a string: the learner is editing it.
  const [runtimeConfig, setRuntimeConfig] = useState<string | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);
  const current = preferences.profile();
  const policyVersion = `${PROFILES[current].suffixed('admissionregistration')}/v1alpha1`;
  const [profile, setProfile] = useState<ProfilePreference>(current);

  const load = () =>
    client.send<Settings>('GET', '/sandbox/v1/settings').then(
      (answer) => {
        setSettings(answer.body);
        setSeconds(String(answer.body.compactionIntervalMs / 1000));
      },
      (e: unknown) => setError(e),
    );
  useEffect(() => {
    if (!active) return;
    void load();
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void load();
    }, 5000);
    // An import or reset replaced the state: read the revision now, not at the next tick.
    const replaced = () => void load();
    window.addEventListener(stateReplacedEvent, replaced);
    return () => {
      clearInterval(timer);
      window.removeEventListener(stateReplacedEvent, replaced);
    };
    // load is new each render; what matters is whether the view is shown.
  }, [active]);

  /** Resolves true once the server took the change. */
  async function put(patch: Partial<Settings>, done: string): Promise<boolean> {
    setError(undefined);
    try {
      const answer = await client.send<Settings>('PUT', '/sandbox/v1/settings', { body: patch });
      setSettings(answer.body);
      setSeconds(String(answer.body.compactionIntervalMs / 1000));
      setNote(done);
      return true;
    } catch (e) {
      setError(e);
      void load();
      return false;
    }
  }

  return (
    <section className="card" aria-labelledby="settings-heading">
      <h3 id="settings-heading">Settings</h3>
      {settings === undefined ? <p role="status">Reading settings…</p> : null}
      <fieldset>
        <legend>Profile</legend>
        <label className="inline">
          <input
            type="radio"
            name="profile"
            checked={profile === 'orch'}
            onChange={() => setProfile('orch')}
          />{' '}
          orch (groups like <code>apps</code>, <code>{PROFILES.orch.suffixed('rbac.authorization')}</code>)
        </label>
        <label className="inline">
          <input
            type="radio"
            name="profile"
            checked={profile === 'kubernetes'}
            onChange={() => setProfile('kubernetes')}
          />{' '}
          kubernetes (upstream names, <code>*.{PROFILES.kubernetes.groupSuffix}</code>)
        </label>
        <p className="muted">
          Each profile keeps its own state. Switching reloads the page with the other server.
        </p>
        {profile === current ? (
          // Offering to switch to the profile already in use reads as if it were not.
          <p className="muted" role="status">
            {current} is the current profile.
          </p>
        ) : (
          <button
            type="button"
            onClick={() => {
              preferences.setProfile(profile);
              location.reload();
            }}
          >
            Switch to {profile}
          </button>
        )}
      </fieldset>
      <fieldset>
        <legend>History window</legend>
        <p className="muted">
          Exact lists and continue tokens from a resourceVersion older than this get 410 Gone; watches are
          served from the watch cache, which keeps its own window.
          {settings !== undefined
            ? ` Now at rv ${settings.revision}, compacted up to rv ${settings.compactedRevision}.`
            : ''}
        </p>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            void put(
              { compactionIntervalMs: Math.round(Number(seconds) * 1000) },
              `History window set to ${seconds} s.`,
            );
          }}
        >
          <label>
            Seconds{' '}
            <input
              value={seconds}
              inputMode="numeric"
              size={6}
              onChange={(e) => setSeconds(e.target.value)}
            />
          </label>
          <button type="submit">Save</button>
        </form>
        <div className="row">
          {windows.map((w) => (
            <button
              key={w.ms}
              type="button"
              className="secondary small"
              onClick={() => void put({ compactionIntervalMs: w.ms }, `History window set to ${w.label}.`)}
            >
              {w.label}
            </button>
          ))}
          <button
            type="button"
            className="secondary small"
            onClick={() =>
              void client.send<{ compactedRevision: number }>('POST', '/sandbox/v1/compact').then(
                (answer) => {
                  setNote(`History compacted up to rv ${answer.body.compactedRevision}.`);
                  void load();
                },
                (e: unknown) => setError(e),
              )
            }
          >
            Compact now
          </button>
        </div>
      </fieldset>
      <fieldset>
        <legend>API versions</legend>
        <p className="muted">
          <code>--runtime-config</code> entries: <code>&lt;group&gt;/&lt;version&gt;=true|false</code> or{' '}
          <code>api/alpha=true</code>, separated by commas. Alpha versions are off by default; a resource
          behind a feature gate (e.g. ValidatingAdmissionPolicy in <code>{policyVersion}</code>) also needs
          its gate on. A change applies at once.
        </p>
        <form
          className="row"
          onSubmit={(e) => {
            e.preventDefault();
            const text = runtimeConfig ?? settings?.runtimeConfig ?? '';
            void put(
              { runtimeConfig: text },
              text === '' ? 'Default API versions.' : `Runtime config: ${text}`,
            ).then((ok) => {
              if (ok) setRuntimeConfig(undefined);
            });
          }}
        >
          <label>
            Runtime config{' '}
            <input
              value={runtimeConfig ?? settings?.runtimeConfig ?? ''}
              size={48}
              spellCheck={false}
              placeholder={`${policyVersion}=true`}
              onChange={(e) => setRuntimeConfig(e.target.value)}
            />
          </label>
          <button type="submit">Apply</button>
        </form>
      </fieldset>
      <FeatureGatesFieldset
        gates={settings?.featureGates ?? {}}
        onChange={(gate, next) => {
          // Shown at once; the server's answer replaces it (and a refusal restores it).
          setSettings((current) =>
            current === undefined
              ? current
              : { ...current, featureGates: { ...current.featureGates, [gate]: next } },
          );
          void put({ featureGates: { [gate]: next } }, `${gate} ${next ? 'on' : 'off'}.`);
        }}
      />
      {note !== undefined ? (
        <p className="success" role="status">
          {note}
        </p>
      ) : null}
      {error !== undefined ? <ErrorNotice title="Settings not changed" error={error} /> : null}
    </section>
  );
}
