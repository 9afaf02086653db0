/**
 * The CodeMirror 6 setup shared by the YAML editor and the diff views:
 * the usual editing extensions (history, keymaps, folding, bracket
 * matching), YAML highlighting, and a theme drawn from the page's CSS
 * custom properties, so it follows the light and dark themes by itself.
 * Tab indents; Escape then Tab (or Ctrl-M) moves focus out, as CodeMirror's
 * accessibility guidance has it.
 */

import {
  autocompletion,
  closeBrackets,
  closeBracketsKeymap,
  completionKeymap,
  type CompletionSource,
} from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { yaml } from '@codemirror/lang-yaml';
import {
  bracketMatching,
  foldGutter,
  foldKeymap,
  indentOnInput,
  syntaxHighlighting,
} from '@codemirror/language';
import { lintKeymap } from '@codemirror/lint';
import type { Extension } from '@codemirror/state';
import {
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  highlightSpecialChars,
  keymap,
  lineNumbers,
} from '@codemirror/view';
import { pageHighlightStyle } from '../common/highlight';

export const pageTheme = EditorView.theme({
  '&': { backgroundColor: 'var(--code-bg)', color: 'var(--ink)', fontSize: '0.85rem', height: '100%' },
  '.cm-content': { fontFamily: 'var(--mono)', caretColor: 'var(--ink)' },
  '.cm-gutters': {
    backgroundColor: 'var(--panel)',
    color: 'var(--muted)',
    borderRight: '1px solid var(--line)',
  },
  '.cm-activeLine': { backgroundColor: 'var(--active-line)' },
  '.cm-activeLineGutter': { backgroundColor: 'var(--active-line)' },
  '&.cm-focused .cm-cursor': { borderLeftColor: 'var(--ink)' },
  '&.cm-focused .cm-selectionBackground, ::selection': { backgroundColor: 'var(--selection)' },
  '.cm-selectionBackground': { backgroundColor: 'var(--selection)' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--ink)', border: '1px solid var(--line)' },
  '.cm-tooltip-autocomplete ul li[aria-selected]': {
    backgroundColor: 'var(--accent)',
    color: 'var(--accent-ink)',
  },
  '.cm-completionDetail': { color: 'var(--muted)', marginLeft: '1em' },
  '.cm-scroller': { overflow: 'auto' },
});

export function editorExtensions(completion: CompletionSource): Extension[] {
  return [
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightSpecialChars(),
    history(),
    foldGutter(),
    drawSelection(),
    indentOnInput(),
    syntaxHighlighting(pageHighlightStyle, { fallback: true }),
    bracketMatching(),
    closeBrackets(),
    autocompletion({ override: [completion], activateOnTyping: true }),
    highlightActiveLine(),
    keymap.of([
      ...closeBracketsKeymap,
      ...defaultKeymap,
      ...historyKeymap,
      ...foldKeymap,
      ...completionKeymap,
      ...lintKeymap,
      indentWithTab,
    ]),
    yaml(),
    pageTheme,
  ];
}

/** A read-only YAML view (for the diff). */
export function readOnlyExtensions(): Extension[] {
  return [
    lineNumbers(),
    syntaxHighlighting(pageHighlightStyle, { fallback: true }),
    yaml(),
    EditorView.editable.of(false),
    pageTheme,
  ];
}
