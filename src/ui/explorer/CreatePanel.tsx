/**
 * Quick create: an object from YAML or JSON text is POSTed to its kind's
 * collection (found from apiVersion and kind via discovery). The server's
 * answer, success or Status, is shown below the button; when the new object
 * is not in the list on screen (another namespace or kind), it says so and
 * links to the list that holds it. The full editor
 * (completion, validation, dry-run diff, apply) is one link away; this panel
 * stays a plain text area so the first screen loads no editor code.
 */

import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import type { KubeObject } from '../../api/meta';
import type { DiscoveredGroupVersion } from '../../client/index';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { choiceForKind, choiceParam, type ResourceChoice } from '../lib/resource-choice';
import { routeHref } from '../lib/route';
import { templateFor, withFreeName } from './template';

interface Props {
  groupVersions: DiscoveredGroupVersion[];
  choice: ResourceChoice | undefined;
  namespace: string;
  /** The namespace the list shows (`*` for all), to tell whether a new object appears in it. */
  shownNamespace?: string;
  onCreated?: (object: KubeObject) => void;
  /** Whether the list holds `name` in `namespace`: the template proposes a name it does not hold. */
  isTaken?: (name: string) => boolean;
  /** Changes whenever the list does (isTaken reads a store mutated in place). */
  listVersion?: number;
}

const noName = (): boolean => false;

type Outcome =
  | { kind: 'idle' }
  | { kind: 'created'; object: KubeObject }
  | { kind: 'failed'; error: unknown; sent: string };

export function CreatePanel({
  groupVersions,
  choice,
  namespace,
  shownNamespace,
  onCreated,
  isTaken = noName,
  listVersion = 0,
}: Props) {
  const client = useClient();
  const textId = useId();
  const template = templateFor(choice, namespace);
  // listVersion stands for the list isTaken reads.
  const fresh = useMemo(() => withFreeName(template, isTaken), [template, isTaken, listVersion]);
  const [text, setText] = useState(fresh);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  // The text last proposed: while the learner has not edited it, a list that fills in (or grows) renames it.
  const proposed = useRef(fresh);

  // Choosing another kind or namespace starts from that kind's template (in that namespace).
  useEffect(() => {
    proposed.current = fresh;
    setText(fresh);
    setOutcome({ kind: 'idle' });
    // fresh is read, not watched: the next effect follows the list without discarding edits.
  }, [template]);
  useEffect(() => {
    setText((current) => {
      if (current !== proposed.current) return current;
      proposed.current = fresh;
      return fresh;
    });
  }, [fresh]);

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
      setOutcome({ kind: 'failed', error, sent: text });
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
          rows={12}
          onChange={(event) => setText(event.target.value)}
        />
        <div className="row">
          <button type="submit" disabled={busy}>
            Create
          </button>
          <button
            type="button"
            className="secondary"
            onClick={() => {
              proposed.current = fresh;
              setText(fresh);
            }}
          >
            Reset to template
          </button>
          <a className="button-link" href={routeHref('editor', { text })}>
            Open in editor
          </a>
        </div>
      </form>
      <div className="outcome">
        {outcome.kind === 'created' ? (
          <div role="status">
            <p className="success">
              Created {outcome.object.kind} {outcome.object.metadata?.name} (resourceVersion{' '}
              {outcome.object.metadata?.resourceVersion})
            </p>
            <ElsewhereHint
              object={outcome.object}
              groupVersions={groupVersions}
              choice={choice}
              shownNamespace={shownNamespace ?? namespace}
            />
          </div>
        ) : null}
        {outcome.kind === 'failed' ? (
          <ErrorNotice title="Not created" error={outcome.error} source={outcome.sent} />
        ) : null}
      </div>
    </section>
  );
}

/**
 * Says where a created object is when the list on screen cannot show it — another kind, or another
 * namespace than the one picked — with a link to that list, since a success message next to a list
 * that does not change reads like a failure.
 */
function ElsewhereHint({
  object,
  groupVersions,
  choice,
  shownNamespace,
}: {
  object: KubeObject;
  groupVersions: DiscoveredGroupVersion[];
  choice: ResourceChoice | undefined;
  shownNamespace: string;
}) {
  const own = choiceForKind(groupVersions, object.apiVersion, object.kind);
  if (own === undefined) return null;
  const objectNamespace = object.metadata?.namespace;
  const sameKind =
    choice !== undefined &&
    choice.groupVersion === own.groupVersion &&
    choice.resource.name === own.resource.name;
  const inShownNamespace =
    !own.resource.namespaced || shownNamespace === '*' || objectNamespace === shownNamespace;
  if (sameKind && inShownNamespace) return null;
  const where = own.resource.namespaced && objectNamespace !== undefined ? objectNamespace : undefined;
  const href = routeHref('explorer', {
    kind: choiceParam(own),
    ...(where === undefined ? {} : { ns: where }),
  });
  return (
    <p className="created-hint">
      {sameKind
        ? `It is in namespace ${where ?? '?'}, and the list shows ${shownNamespace}. `
        : `The list shows ${choice?.resource.kind ?? 'another kind'}, not ${object.kind ?? 'this kind'}. `}
      <a href={href}>
        {sameKind
          ? `Show namespace ${where ?? '?'}`
          : `Show ${own.resource.kind} objects${where === undefined ? '' : ` in ${where}`}`}
      </a>
    </p>
  );
}
