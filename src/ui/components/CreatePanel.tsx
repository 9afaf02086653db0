/**
 * Creates an object from YAML or JSON text: finds its collection from
 * apiVersion and kind (discovery) and POSTs it there. The server's answer,
 * success or Status, is shown below the button.
 */

import { useEffect, useId, useState, type FormEvent } from 'react';
import type { KubeObject } from '../../api/meta';
import type { DiscoveredGroupVersion } from '../../client/index';
import { useClient } from '../client-context';
import { collectionFor, parseManifest, templateFor } from '../lib/manifest';
import type { ResourceChoice } from '../lib/resource-choice';
import { ErrorNotice } from './ErrorNotice';

interface Props {
  groupVersions: DiscoveredGroupVersion[];
  choice: ResourceChoice | undefined;
  namespace: string;
  onCreated: (object: KubeObject) => void;
}

type Outcome =
  { kind: 'idle' } | { kind: 'created'; object: KubeObject } | { kind: 'failed'; error: unknown };

export function CreatePanel({ groupVersions, choice, namespace, onCreated }: Props) {
  const client = useClient();
  const textId = useId();
  const [text, setText] = useState(() => templateFor(choice, namespace));
  const [edited, setEdited] = useState(false);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });

  // Follow the chosen kind and namespace until the user types their own text.
  const template = templateFor(choice, namespace);
  useEffect(() => {
    if (!edited) setText(template);
  }, [template, edited]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setBusy(true);
    try {
      const object = parseManifest(text);
      const created = await client.create(collectionFor(object, groupVersions, namespace), object);
      setOutcome({ kind: 'created', object: created });
      onCreated(created);
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
          onChange={(event) => {
            setText(event.target.value);
            setEdited(true);
          }}
        />
        <div className="row">
          <button type="submit" disabled={busy}>
            Create
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              setEdited(false);
              setText(template);
            }}
          >
            Reset to template
          </button>
        </div>
      </form>
      <div aria-live="polite">
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
