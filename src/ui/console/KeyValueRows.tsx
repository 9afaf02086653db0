/**
 * Editable name/value rows (query parameters, headers), with add and remove
 * buttons; every field is labelled for screen readers.
 */

import type { Row } from './composer-state';

interface Props {
  legend: string;
  rows: Row[];
  namePlaceholder: string;
  onChange: (rows: Row[]) => void;
}

export function KeyValueRows({ legend, rows, namePlaceholder, onChange }: Props) {
  const set = (index: number, row: Row) => onChange(rows.map((r, i) => (i === index ? row : r)));
  return (
    <fieldset className="kv-rows">
      <legend>{legend}</legend>
      {rows.map(([name, value], index) => (
        <div className="kv-row" key={index}>
          <input
            aria-label={`${legend} name ${index + 1}`}
            placeholder={namePlaceholder}
            value={name}
            onChange={(e) => set(index, [e.target.value, value])}
          />
          <input
            aria-label={`${legend} value ${index + 1}`}
            placeholder="value"
            value={value}
            onChange={(e) => set(index, [name, e.target.value])}
          />
          <button
            type="button"
            className="secondary small"
            aria-label={`Remove ${legend.toLowerCase()} ${name || index + 1}`}
            onClick={() => onChange(rows.filter((_, i) => i !== index))}
          >
            ✕
          </button>
        </div>
      ))}
      <button type="button" className="secondary small" onClick={() => onChange([...rows, ['', '']])}>
        Add {legend.toLowerCase().replace(/s$/, '')}
      </button>
    </fieldset>
  );
}
