/**
 * What the objects pane shows before its first list: the table's shape in
 * grey rows, with what is happening in words (reading discovery, listing),
 * so the first visit's wait reads as progress, not as an empty pane; until
 * the worker serves a first visit, the line says the server is starting
 * instead (styles.css, decision 0112). The bars are decoration (hidden from assistive technology); the status line
 * is what a screen reader hears.
 */

/** Bar widths, varied like names and ages in a real list. */
const widths = [
  [46, 18, 22],
  [62, 14, 18],
  [38, 20, 22],
  [54, 12, 20],
  [70, 16, 16],
  [42, 18, 22],
];

export function SkeletonRows({ status }: { status: string }) {
  return (
    <div className="skeleton" data-testid="skeleton-rows">
      <p role="status" className="muted skeleton-status">
        <span className="spinner" aria-hidden="true" /> <span className="skeleton-reading">{status}</span>
        <span className="skeleton-starting">Starting the API server in this browser…</span>
      </p>
      <table className="objects skeleton-table" aria-hidden="true">
        <thead>
          <tr>
            <th>Name</th>
            <th>Data</th>
            <th>Age</th>
          </tr>
        </thead>
        <tbody>
          {widths.map((row, i) => (
            <tr key={i}>
              {row.map((w, j) => (
                <td key={j}>
                  <span className="skeleton-bar" style={{ width: `${w * (j === 0 ? 1 : 3)}%` }} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
