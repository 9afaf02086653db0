/**
 * Create or edit one backend as YAML (JSON is YAML too): the document is
 * what the sandbox API takes, a sample (or a link's document) can be the
 * start, and a refusal shows the server's 422 with one cause per problem
 * (CEL compile errors, bad patch templates, JavaScript that does not parse).
 */

import { useEffect, useId, useState } from 'react';
import { parse as parseYaml, stringify as toYaml } from 'yaml';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { saveBackend, type WebhookBackend } from './backend-api';
import { samples } from './samples';

export function BackendEditor({
  editing,
  linkedText,
  onSaved,
}: {
  /** The backend to edit; undefined: a new one. */
  editing: WebhookBackend | undefined;
  /** A new backend's document from a link (`#/webhooks?text=…`, a lesson step), shown instead of a sample. */
  linkedText?: string | undefined;
  onSaved: (backend: WebhookBackend) => void;
}) {
  const client = useClient();
  const id = useId();
  const [text, setText] = useState(() => linkedText ?? toYaml(editing ?? samples[0]?.backend ?? {}));

  useEffect(() => {
    if (linkedText !== undefined) setText(linkedText);
  }, [linkedText]);
  const [error, setError] = useState<unknown>(undefined);
  const [saved, setSaved] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (editing !== undefined) setText(toYaml(editing));
    setError(undefined);
    setSaved(undefined);
  }, [editing]);

  async function save() {
    setBusy(true);
    setError(undefined);
    setSaved(undefined);
    try {
      const parsed: unknown = parseYaml(text);
      if (
        parsed === null ||
        typeof parsed !== 'object' ||
        typeof (parsed as { name?: unknown }).name !== 'string'
      )
        throw new Error('the document needs a name: a YAML or JSON object {name, kind, rules | source}');
      const backend = await saveBackend(client, parsed as WebhookBackend);
      setSaved(backend.name);
      onSaved(backend);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="card" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{editing !== undefined ? `Edit ${editing.name}` : 'New backend'}</h3>
      <div className="row">
        <label htmlFor={`${id}-sample`}>Start from a sample</label>
        <select
          id={`${id}-sample`}
          defaultValue=""
          onChange={(e) => {
            const sample = samples.find((s) => s.id === e.target.value);
            if (sample !== undefined) setText(toYaml(sample.backend));
          }}
        >
          <option value="" disabled>
            Choose…
          </option>
          {samples.map((s) => (
            <option key={s.id} value={s.id}>
              {s.label}
            </option>
          ))}
        </select>
      </div>
      <label htmlFor={`${id}-doc`}>Backend (YAML or JSON)</label>
      <textarea
        id={`${id}-doc`}
        className="webhook-backend-doc"
        spellCheck={false}
        rows={16}
        value={text}
        onChange={(e) => setText(e.target.value)}
      />
      <p className="hint">
        <code>kind: rules</code>: the first rule whose CEL <code>when</code> holds (over <code>request</code>,{' '}
        <code>object</code>, <code>oldObject</code>) answers; patch values may be{' '}
        <code>{'{expr: <CEL>}'}</code>. <code>kind: javascript</code>: <code>source</code> is{' '}
        <code>(admissionReview) =&gt; response</code>.
      </p>
      <div className="row">
        <button type="button" onClick={() => void save()} disabled={busy}>
          Save backend
        </button>
      </div>
      {saved !== undefined ? (
        <p className="success" role="status">
          Saved {saved}.
        </p>
      ) : null}
      {error !== undefined ? <ErrorNotice title="The backend was not saved" error={error} /> : null}
    </section>
  );
}
