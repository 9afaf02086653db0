/**
 * The editor: an object as YAML with completion and inline validation from
 * the server's OpenAPI, and create / update / apply, each previewed first
 * as a server-side dry run diffed against what is stored. The text comes
 * from the route: `path` loads a stored object, `text` a given text, else a
 * template. This view is its own chunk, so CodeMirror loads only here.
 */

import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
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
import { planWrite, type Operation, type WriteOptions } from './write-plan';
import { WriteOutcome } from './WriteOutcome';
import { WritePreview } from './WritePreview';
import { YamlEditor } from './YamlEditor';

export function EditorView({ params }: ViewProps) {
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
  const [source, setSource] = useState<string>(
    params['path'] !== undefined ? `loading ${params['path']}…` : 'a template',
  );
  const [loadError, setLoadError] = useState<unknown>(undefined);
  const [options, setOptions] = useState<WriteOptions>({
    fieldManager: preferences.fieldManager(),
    force: false,
    fieldValidation: '',
  });
  const flow = useWriteFlow(client);

  const path = params['path'];
  const givenText = params['text'];
  useEffect(() => {
    if (path === undefined) return;
    let live = true;
    setLoadError(undefined);
    client.send('GET', path).then(
      (answer) => {
        if (!live) return;
        setText(toYaml(withoutManagedFields(answer.body as never)));
        setSource(path);
      },
      (error: unknown) => live && setLoadError(error),
    );
    return () => {
      live = false;
    };
  }, [client, path]);
  useEffect(() => {
    if (givenText === undefined) return;
    setText(givenText);
    setSource('the explorer');
  }, [givenText]);

  function start(operation: Operation) {
    try {
      flow.runPreview(planWrite(operation, text, options, groupVersions, 'default')).catch(flow.fail);
    } catch (error) {
      flow.fail(error);
    }
  }

  return (
    <main className="editor-view" id="main" tabIndex={-1}>
      <div className="editor-main">
        <div className="toolbar">
          <h2>Editor</h2>
          <span className="muted">from {source}</span>
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
          onTemplate={(choice) => {
            setText(templateFor(choice, 'default'));
            setSource(`a ${choice.resource.kind} template`);
          }}
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
        {flow.preview !== undefined ? (
          <WritePreview
            preview={flow.preview}
            busy={flow.busy}
            onConfirm={() => void flow.confirm()}
            onCancel={flow.cancel}
          />
        ) : null}
        {flow.outcome !== undefined ? <WriteOutcome outcome={flow.outcome} /> : null}
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
