/**
 * The YAML editor (CodeMirror 6): completion and inline validation come
 * from the server's OpenAPI schemas and discovery. The text is owned by the
 * parent: edits are reported with `onChange`, and a new `value` from outside
 * (an object loaded, a template chosen) replaces the document.
 */

import type { CompletionSource } from '@codemirror/autocomplete';
import { linter, lintGutter, type Diagnostic } from '@codemirror/lint';
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { editorExtensions } from './cm-setup';
import type { Finding } from './schema/validate';

interface Props {
  value: string;
  onChange: (text: string) => void;
  completion: CompletionSource;
  validate: (text: string) => Promise<Finding[]>;
  label: string;
}

export function YamlEditor({ value, onChange, completion, validate, label }: Props) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const callbacks = useRef({ onChange, validate });
  callbacks.current = { onChange, validate };

  useEffect(() => {
    if (host.current === null) return;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          editorExtensions(completion),
          lintGutter(),
          linter(
            async (v): Promise<Diagnostic[]> => {
              const text = v.state.doc.toString();
              const findings = await callbacks.current.validate(text);
              const length = v.state.doc.length;
              return findings.map((f) => ({
                from: Math.min(f.from, length),
                to: Math.min(Math.max(f.to, f.from), length),
                severity: f.severity,
                message: f.message,
              }));
            },
            { delay: 300 },
          ),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) callbacks.current.onChange(update.state.doc.toString());
          }),
          EditorView.contentAttributes.of({ 'aria-label': label }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = undefined;
    };
    // Created once; value changes are dispatched below.
  }, [completion, label]);

  useEffect(() => {
    const editor = view.current;
    if (editor === undefined) return;
    const current = editor.state.doc.toString();
    if (current !== value) editor.dispatch({ changes: { from: 0, to: current.length, insert: value } });
  }, [value]);

  return <div className="yaml-editor" ref={host} />;
}
