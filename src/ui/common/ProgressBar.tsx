/**
 * Progress of a long operation (bulk delete, import, scenario load): a
 * native progress element with its label and a count, or an indeterminate
 * bar when the total is unknown. Announced politely to screen readers.
 */

export function ProgressBar({ label, value, max }: { label: string; value?: number; max?: number }) {
  const known = value !== undefined && max !== undefined && max > 0;
  return (
    <div className="progress" role="status" aria-live="polite">
      <span className="progress-label">
        {label}
        {known ? ` ${value} of ${max}` : '…'}
      </span>
      {known ? <progress value={value} max={max} aria-label={label} /> : <progress aria-label={label} />}
    </div>
  );
}
