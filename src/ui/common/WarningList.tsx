/**
 * The texts of a response's `Warning` headers (unknown fields dropped,
 * deprecated APIs), shown as the server sent them.
 */

export function WarningList({ warnings }: { warnings: string[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="warnings" role="note" aria-label="Warnings from the server">
      <strong>Warning{warnings.length === 1 ? '' : 's'} from the server</strong>
      <ul>
        {warnings.map((warning, i) => (
          <li key={i}>{warning}</li>
        ))}
      </ul>
    </div>
  );
}
