/**
 * Two YAML texts side by side with their differences marked
 * (`@codemirror/merge`): what is stored against what the server would
 * store. Unchanged stretches are collapsed; long lines wrap.
 */

import { MergeView } from '@codemirror/merge';
import { EditorView } from '@codemirror/view';
import { useEffect, useRef } from 'react';
import { readOnlyExtensions } from './cm-setup';

export function MergeDiff({ before, after, label }: { before: string; after: string; label: string }) {
  const host = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (host.current === null) return;
    const view = new MergeView({
      parent: host.current,
      // Long lines (uids, timestamps, the changed value itself) wrap rather than run out of the pane.
      a: { doc: before, extensions: [...readOnlyExtensions(), EditorView.lineWrapping] },
      b: { doc: after, extensions: [...readOnlyExtensions(), EditorView.lineWrapping] },
      gutter: true,
      highlightChanges: true,
      collapseUnchanged: { margin: 3, minSize: 6 },
    });
    return () => view.destroy();
  }, [before, after]);
  return <div className="merge-diff" ref={host} role="group" aria-label={label} />;
}
