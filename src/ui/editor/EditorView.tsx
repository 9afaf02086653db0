/**
 * The editor: an object as YAML with completion and inline validation from
 * the server's OpenAPI, and create / update / apply, each previewed first
 * as a server-side dry run diffed against what is stored. The text comes
 * from the route: `path` loads a stored object, `text` a given text, else a
 * template. This view is its own chunk, so CodeMirror loads only here.
 * The editor keeps a base — what it loaded, or what the server answered to
 * its last write — so the next update carries the current resourceVersion,
 * the heading says where the text came from, and a 409 can be resolved by
 * re-applying the change onto what is stored now.
 */

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { ApiError } from '../../client/index';
import { useClient } from '../client-context';
import { useDiscovery } from '../app/DiscoveryContext';
import type { ViewProps } from '../app/view-props';
import { ErrorNotice } from '../common/ErrorNotice';
import { preferences } from '../lib/preferences';
import { listableChoices } from '../lib/resource-choice';
import { toYaml, withoutManagedFields, withoutServerFields } from '../lib/yaml-text';
import { parseManifest } from '../lib/manifest';
import { templateFor } from '../explorer/template';
import { EditorToolbar } from './EditorToolbar';
import { OpenApiSchemas } from './schema/openapi';
import { schemaCompletion } from './schema/completion';
import { validateYaml } from './schema/validate';
import { useWriteFlow } from './useWriteFlow';
import { UpdateConflict, type Base } from './UpdateConflict';
import { planWrite, type Operation, type WritePlan, type WriteOptions } from './write-plan';
import { WriteOutcome } from './WriteOutcome';
import { WritePreview } from './WritePreview';
import { YamlEditor } from './YamlEditor';

export function EditorView({ params, active }: ViewProps) {
  const client = useClient();
  const discovery = useDiscovery().discovery;
  const groupVersions = useMemo(() => discovery?.groupVersions ?? [], [discovery]);
  const versionsRef = useRef(groupVersions);
  versionsRef.current = groupVersions;
  const schemas = useMemo(() => new OpenApiSchemas(client), [client]);
  useEffect(() => schemas.reset(), [schemas, groupVersions]);
  const completion = useMemo(
    () => schemaCompletion({ schemas, groupVersions: () => versionsRef.current }),
    [schemas],
  );
  const validate = useCallback(
    (text: string) => validateYaml(text, { schemas, groupVersions: versionsRef.current }),
    [schemas],
  );
  const [text, setText] = useState(() => params['text'] ?? templateFor(undefined, 'default'));
  const [base, setBase] = useState<Base>(() => ({
    object: undefined,
    text,
    label:
      params['path'] !== undefined
        ? `loading ${params['path']}…`
        : params['text'] !== undefined
          ? 'the explorer'
          : 'a template',
    path: undefined,
  }));
  // The effects below run on navigation and must see the text and base as they are now.
  const now = useRef({ text, base });
  now.current = { text, base };
  const [loadError, setLoadError] = useState<unknown>(undefined);
  const [options, setOptions] = useState<WriteOptions>({
    fieldManager: preferences.fieldManager(),
    force: false,
    fieldValidation: '',
  });
  const flow = useWriteFlow(client);

  /** The editor holds `object` (as the server has it) and forgets any earlier preview or result. */
  const hold = (object: KubeObject, label: string, objectPath: string | undefined) => {
    const shown = toYaml(withoutManagedFields(object));
    setText(shown);
    setBase({ object, text: shown, label, path: objectPath });
  };
  const replace = (next: string, label: string) => {
    setText(next);
    setBase({ object: undefined, text: next, label, path: undefined });
    flow.reset();
  };

  // `params` is a new object on every navigation to the editor ("Edit in editor" again included).
  const path = params['path'];
  const givenText = params['text'];
  useEffect(() => {
    if (path === undefined) return;
    const current = now.current;
    // Unsaved edits of this same object are kept; a 409 on update then re-applies them.
    if (current.base.path === path && current.text !== current.base.text) return;
    let live = true;
    setLoadError(undefined);
    client.send<KubeObject>('GET', path).then(
      (answer) => {
        if (!live) return;
        hold(answer.body, `${path} (rv ${answer.body.metadata?.resourceVersion ?? '?'})`, path);
        flow.reset();
      },
      (error: unknown) => live && setLoadError(error),
    );
    return () => {
      live = false;
    };
    // hold and flow are new each render; the navigation (params) is what triggers a load.
  }, [client, path, params]);
  useEffect(() => {
    if (givenText === undefined || givenText === now.current.base.text) return;
    replace(givenText, 'the explorer');
    // As above: a new text from a link replaces the editor's.
  }, [givenText, params]);

  function start(operation: Operation, from = text) {
    try {
      flow.runPreview(planWrite(operation, from, options, groupVersions, 'default'), from).catch(flow.fail);
    } catch (error) {
      flow.fail(error);
    }
  }

  async function confirm() {
    const outcome = await flow.confirm();
    if (outcome?.object === undefined || outcome.plan === undefined) return;
    const rv = outcome.object.metadata?.resourceVersion ?? '?';
    const objectPath = outcome.plan.objectPath || undefined;
    // An applied configuration is the manager's intent, not the whole object: keep it, on the new base.
    if (outcome.plan.operation === 'apply')
      setBase({
        object: outcome.object,
        text: outcome.text ?? now.current.text,
        label: `your applied configuration (stored at rv ${rv})`,
        path: objectPath,
      });
    else hold(outcome.object, `the server's answer to ${outcome.plan.method} (rv ${rv})`, objectPath);
  }

  const conflict = updateConflict(flow.preview) ?? updateConflict(flow.outcome);

  return (
    <main className="editor-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <div className="editor-main">
        <div className="toolbar">
          <h2>Editor</h2>
          <span className="muted editor-source">
            from {base.label}
            {text !== base.text ? ' — edited' : ''}
          </span>
        </div>
        <EditorToolbar
          options={options}
          busy={flow.busy}
          kinds={listableChoices(groupVersions).filter((c) => c.resource.verbs.includes('create'))}
          onOptions={(next) => {
            setOptions(next);
            preferences.setFieldManager(next.fieldManager);
          }}
          onStart={start}
          onTemplate={(choice) =>
            replace(templateFor(choice, 'default'), `a ${choice.resource.kind} template`)
          }
          onStrip={() => {
            try {
              setText(toYaml(withoutServerFields(parseManifest(text))));
            } catch (error) {
              flow.fail(error);
            }
          }}
        />
        {loadError !== undefined ? (
          <ErrorNotice title={`Could not load ${path ?? ''}`} error={loadError} />
        ) : null}
        <YamlEditor
          value={text}
          onChange={setText}
          completion={completion}
          validate={validate}
          label="Object YAML"
        />
        <p className="hint muted">
          Ctrl-Space lists the fields the server's schema allows here. Esc, then Tab, leaves the editor.
        </p>
      </div>
      <section className="editor-side" aria-label="Server answer">
        {flow.busy ? (
          <p role="status">
            <span className="spinner" aria-hidden="true" /> Asking the server…
          </p>
        ) : null}
        {conflict !== undefined ? (
          <UpdateConflict
            key={conflict.text}
            base={base}
            mine={conflict.text}
            objectPath={conflict.plan.objectPath}
            onReapply={(merged, theirs) => {
              const rv = theirs.metadata?.resourceVersion ?? '?';
              setBase({
                object: theirs,
                text: toYaml(withoutManagedFields(theirs)),
                label: `${conflict.plan.objectPath} (rv ${rv}), your change re-applied`,
                path: conflict.plan.objectPath,
              });
              setText(merged);
              start('update', merged);
            }}
            onDiscard={(theirs) => {
              const rv = theirs.metadata?.resourceVersion ?? '?';
              hold(theirs, `${conflict.plan.objectPath} (rv ${rv})`, conflict.plan.objectPath);
              flow.reset();
            }}
          />
        ) : (
          <>
            {flow.preview !== undefined ? (
              <WritePreview
                preview={flow.preview}
                busy={flow.busy}
                stale={flow.preview.text !== text}
                onConfirm={() => void confirm()}
                onCancel={flow.cancel}
              />
            ) : null}
            {flow.outcome !== undefined ? <WriteOutcome outcome={flow.outcome} /> : null}
          </>
        )}
        {flow.preview === undefined && flow.outcome === undefined && !flow.busy ? (
          <div className="intro muted">
            <p>
              Every write is previewed first: the editor sends it with <code>dryRun=All</code>, reads what is
              stored, and shows the difference — the server's defaults, admission changes and apply merging —
              before you confirm.
            </p>
            <p>
              <strong>Create</strong> POSTs the object, <strong>Update</strong> PUTs it (replacing it), and{' '}
              <strong>Apply</strong> sends the text as a server-side apply patch owned by the field manager.
            </p>
          </div>
        ) : null}
      </section>
    </main>
  );
}

/** An update refused because its resourceVersion is stale (not an apply conflict, not AlreadyExists). */
function updateConflict(
  step: { plan: WritePlan | undefined; error: unknown; text?: string } | undefined,
): { plan: WritePlan; text: string } | undefined {
  if (step?.plan?.operation !== 'update' || step.text === undefined) return undefined;
  const error = step.error;
  if (!(error instanceof ApiError && error.code === 409 && error.reason === 'Conflict')) return undefined;
  return { plan: step.plan, text: step.text };
}
