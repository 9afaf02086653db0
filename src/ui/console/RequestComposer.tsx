/**
 * The request form of the console: method, path, query parameters,
 * headers (with Accept presets for JSON, Table, YAML and Protobuf), content
 * type and body. Any request the API understands can be written here.
 */

import type { FormEvent } from 'react';
import { acceptPresets, contentTypes, hasBody, type Composed } from './composer-state';
import { KeyValueRows } from './KeyValueRows';

interface Props {
  composed: Composed;
  busy: boolean;
  streaming: boolean;
  onChange: (composed: Composed) => void;
  onSend: () => void;
  onStop: () => void;
}

const methods = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD'];

export function RequestComposer({ composed, busy, streaming, onChange, onSend, onStop }: Props) {
  const set = <K extends keyof Composed>(key: K, value: Composed[K]) =>
    onChange({ ...composed, [key]: value });
  const setAccept = (value: string) => {
    const others = composed.headers.filter(([name]) => name.toLowerCase() !== 'accept');
    onChange({ ...composed, headers: [['Accept', value], ...others] });
  };
  return (
    <form
      className="composer"
      aria-label="Request"
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        onSend();
      }}
    >
      <div className="request-row">
        <label>
          <span className="visually-hidden">Method</span>
          <select value={composed.method} onChange={(e) => set('method', e.target.value)}>
            {methods.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </label>
        <label className="grow">
          <span className="visually-hidden">Path</span>
          <input value={composed.path} spellCheck={false} onChange={(e) => set('path', e.target.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Send
        </button>
        {streaming ? (
          <button type="button" className="secondary" onClick={onStop}>
            Stop
          </button>
        ) : null}
      </div>
      <div className="accept-presets" role="group" aria-label="Accept presets">
        <span className="muted">Accept:</span>
        {acceptPresets.map((preset) => (
          <button
            key={preset.label}
            type="button"
            className="secondary small"
            onClick={() => setAccept(preset.value)}
          >
            {preset.label}
          </button>
        ))}
      </div>
      <div className="kv-columns">
        <KeyValueRows
          legend="Query parameters"
          rows={composed.query}
          namePlaceholder="name"
          onChange={(rows) => set('query', rows)}
        />
        <KeyValueRows
          legend="Headers"
          rows={composed.headers}
          namePlaceholder="Header"
          onChange={(rows) => set('headers', rows)}
        />
      </div>
      {hasBody(composed.method) ? (
        <>
          <label>
            Content-Type{' '}
            <select value={composed.contentType} onChange={(e) => set('contentType', e.target.value)}>
              {contentTypes.map((t) => (
                <option key={t}>{t}</option>
              ))}
            </select>
          </label>
          <label className="body-label">
            Body
            <textarea
              value={composed.body}
              rows={8}
              spellCheck={false}
              onChange={(e) => set('body', e.target.value)}
            />
          </label>
        </>
      ) : null}
    </form>
  );
}
