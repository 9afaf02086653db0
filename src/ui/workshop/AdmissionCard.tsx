/**
 * Admission and audit settings of the running sandbox — what the real
 * server takes as `--enable-admission-plugins`, `--disable-admission-plugins`,
 * `--admission-control-config-file` and `--audit-policy-file`: every plugin
 * in the order it runs (default-on ones marked), an AdmissionConfiguration
 * document with embedded plugin configurations, and the audit policy. A
 * refused change shows the server's start-up message and changes nothing.
 */

import { useEffect, useState } from 'react';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';

interface PluginState {
  name: string;
  defaultOn: boolean;
  enabled: boolean;
}

interface AdmissionSettings {
  enablePlugins: string[];
  disablePlugins: string[];
  configuration: string;
}

interface Settings {
  admission: AdmissionSettings;
  auditPolicy: string;
  admissionPlugins: PluginState[];
}

/** The flags that give `wanted` as the enabled set: default-off plugins enabled, default-on ones disabled. */
function flagsFor(
  plugins: PluginState[],
  wanted: ReadonlySet<string>,
): Pick<AdmissionSettings, 'enablePlugins' | 'disablePlugins'> {
  return {
    enablePlugins: plugins.filter((p) => !p.defaultOn && wanted.has(p.name)).map((p) => p.name),
    disablePlugins: plugins.filter((p) => p.defaultOn && !wanted.has(p.name)).map((p) => p.name),
  };
}

export function AdmissionCard({ active = true }: { active?: boolean }) {
  const client = useClient();
  const [settings, setSettings] = useState<Settings | undefined>(undefined);
  const [configuration, setConfiguration] = useState('');
  const [policy, setPolicy] = useState('');
  const [error, setError] = useState<unknown>(undefined);
  const [note, setNote] = useState<string | undefined>(undefined);

  useEffect(() => {
    if (!active) return;
    client.send<Settings>('GET', '/sandbox/v1/settings').then(
      (answer) => {
        setSettings(answer.body);
        setConfiguration(answer.body.admission.configuration);
        setPolicy(answer.body.auditPolicy);
      },
      (e: unknown) => setError(e),
    );
  }, [active, client]);

  async function put(patch: Partial<Pick<Settings, 'admission' | 'auditPolicy'>>, done: string) {
    setError(undefined);
    setNote(undefined);
    try {
      const answer = await client.send<Settings>('PUT', '/sandbox/v1/settings', { body: patch });
      setSettings(answer.body);
      setNote(done);
    } catch (e) {
      setError(e);
      client.send<Settings>('GET', '/sandbox/v1/settings').then(
        (answer) => setSettings(answer.body),
        () => undefined,
      );
    }
  }

  const plugins = settings?.admissionPlugins ?? [];
  const enabled = new Set(plugins.filter((p) => p.enabled).map((p) => p.name));
  const admission = (wanted: ReadonlySet<string>, text = configuration): AdmissionSettings => ({
    ...flagsFor(plugins, wanted),
    configuration: text,
  });

  return (
    <section className="card" aria-labelledby="admission-settings-heading">
      <h3 id="admission-settings-heading">Admission and audit</h3>
      {settings === undefined ? <p role="status">Reading settings…</p> : null}
      <fieldset>
        <legend>Admission plugins, in the order they run</legend>
        <p className="muted">
          As <code>--enable-admission-plugins</code> / <code>--disable-admission-plugins</code>: checked
          plugins run on every create, update, delete and connect. <em>default</em> marks the real
          server&apos;s default-on set.
        </p>
        <div className="plugin-grid">
          {plugins.map((p) => (
            <label key={p.name} className="inline">
              <input
                type="checkbox"
                checked={p.enabled}
                onChange={(e) => {
                  const on = e.target.checked;
                  const wanted = new Set(enabled);
                  if (on) wanted.add(p.name);
                  else wanted.delete(p.name);
                  // Shown at once (a controlled checkbox that waited for the server would look unclicked); the
                  // server's answer replaces it, and a refusal puts the previous state back.
                  setSettings((current) =>
                    current === undefined
                      ? current
                      : {
                          ...current,
                          admissionPlugins: current.admissionPlugins.map((q) =>
                            q.name === p.name ? { ...q, enabled: on } : q,
                          ),
                        },
                  );
                  void put({ admission: admission(wanted) }, `${p.name} ${on ? 'enabled' : 'disabled'}.`);
                }}
              />{' '}
              {p.name}
              {p.defaultOn ? <span className="muted"> (default)</span> : null}
            </label>
          ))}
        </div>
        <button
          type="button"
          className="secondary small"
          onClick={() =>
            void put(
              { admission: { enablePlugins: [], disablePlugins: [], configuration } },
              'Back to the default plugins.',
            )
          }
        >
          Default plugins
        </button>
      </fieldset>
      <fieldset>
        <legend>Admission configuration</legend>
        <label className="stacked">
          <span className="muted">
            An <code>AdmissionConfiguration</code> with each plugin&apos;s configuration embedded
            (EventRateLimit, PodSecurity, PodNodeSelector, …); empty for none.
          </span>
          <textarea
            rows={8}
            spellCheck={false}
            value={configuration}
            onChange={(e) => setConfiguration(e.target.value)}
          />
        </label>
        <button
          type="button"
          onClick={() => void put({ admission: admission(enabled) }, 'Admission configuration saved.')}
        >
          Save configuration
        </button>
      </fieldset>
      <fieldset>
        <legend>Audit policy</legend>
        <label className="stacked">
          <span className="muted">
            A <code>Policy</code> document, as <code>--audit-policy-file</code>; empty audits nothing.
          </span>
          <textarea rows={6} spellCheck={false} value={policy} onChange={(e) => setPolicy(e.target.value)} />
        </label>
        <button type="button" onClick={() => void put({ auditPolicy: policy }, 'Audit policy saved.')}>
          Save audit policy
        </button>
      </fieldset>
      {note !== undefined ? (
        <p className="success" role="status">
          {note}
        </p>
      ) : null}
      {error !== undefined ? <ErrorNotice title="Not changed" error={error} /> : null}
    </section>
  );
}
