/**
 * A unified line diff of two texts (removed lines red with `-`, added ones
 * green with `+`), showing only the changes with a few lines of context.
 */

import { useMemo } from 'react';
import { diffLines, withContext } from '../lib/line-diff';

export function LineDiffView({ before, after, label }: { before: string; after: string; label: string }) {
  const lines = useMemo(() => withContext(diffLines(before, after)), [before, after]);
  if (lines.every((line) => line.kind === 'same' || line.kind === 'gap'))
    return <p className="muted">No difference.</p>;
  return (
    <pre className="code-block diff" tabIndex={0} aria-label={label}>
      {lines.map((line, i) =>
        line.kind === 'gap' ? (
          <span key={i} className="diff-gap">
            {`⋯ ${line.count} unchanged line${line.count === 1 ? '' : 's'}\n`}
          </span>
        ) : (
          <span key={i} className={`diff-${line.kind}`}>
            {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
            {line.text}
            {'\n'}
          </span>
        ),
      )}
    </pre>
  );
}
