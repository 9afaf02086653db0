/**
 * Quick create: an object from YAML or JSON text is POSTed to its kind's
 * collection (found from apiVersion and kind via discovery). The server's
 * answer, success or Status, is shown below the button. The full editor
 * (completion, validation, dry-run diff, apply) is one link away; this panel
 * stays a plain text area so the first screen loads no editor code.
 */

import { useEffect, useId, useState, type FormEvent } from 'react';
import type { KubeObject } from '../../api/meta';
import type { DiscoveredGroupVersion } from '../../client/index';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import type { ResourceChoice } from '../lib/resource-choice';
import { routeHref } from '../lib/route';
import { templateFor } from './template';

interface Props {
  groupVersions: DiscoveredGroupVersion[];
  choice: ResourceChoice | undefined;
  namespace: string;
  onCreated?: (object: KubeObject) => void;
}

type Outcome =
  { kind: 'idle' } | { kind: 'created'; object: KubeObject } | { kind: 'failed'; error: unknown };

export function CreatePanel({ groupVersions, choice, namespace, onCreated }: Props) {
  const client = useClient();
  const textId = useId();
  const [text, setText] = useState(() => templateFor(choice, namespace));
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });

  // Choosing another kind or namespace starts from that kind's template (in that namespace).
  const template = templateFor(choice, namespace);
  useEffect(() => {
    setText(template);
    setOutcome({ kind: 'idle' });
  }, [template]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const { collectionFor, parseManifest } = await import('../lib/manifest');
      const object = parseManifest(text);
      const created = await client.create(collectionFor(object, groupVersions, namespace), object, {
        fieldManager: 'sandbox-explorer',
      });
      setOutcome({ kind: 'created', object: created });
      onCreated?.(created);
    } catch (error) {
      setOutcome({ kind: 'failed', error });
    } finally {
      setBusy(false);
    }
  }

  return (
    <section className="create-panel" aria-labelledby={`${textId}-heading`}>
      <h2 id={`${textId}-heading`}>Create</h2>
      <form onSubmit={(event) => void submit(event)}>
        <label htmlFor={textId}>Object (YAML or JSON)</label>
        <textarea
          id={textId}
          value={text}
          spellCheck={false}
          rows={14}
          onChange={(event) => setText(event.target.value)}
        />
        <div className="row">
          <button type="submit" disabled={busy}>
            Create
          </button>
          <button type="button" className="secondary" onClick={() => setText(template)}>
            Reset to template
          </button>
          <a className="button-link" href={routeHref('editor', { text })}>
            Open in editor
          </a>
        </div>
      </form>
      <div aria-live="polite" className="outcome">
        {outcome.kind === 'created' ? (
          <p className="success" role="status">
            Created {outcome.object.kind} {outcome.object.metadata?.name} (resourceVersion{' '}
            {outcome.object.metadata?.resourceVersion})
          </p>
        ) : null}
        {outcome.kind === 'failed' ? <ErrorNotice title="Not created" error={outcome.error} /> : null}
      </div>
    </section>
  );
}
