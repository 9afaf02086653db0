/**
 * A labelled one-line text input as the forms write it: the label wraps the
 * input (so the label text is its accessible name), the browser's
 * autocomplete is off (these are API names, not personal data), and the
 * change hands over the new text.
 */

import type { HTMLAttributes } from 'react';

export interface TextFieldProps {
  label: string;
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  inputMode?: HTMLAttributes<HTMLInputElement>['inputMode'];
  /** The id of an element describing the field. */
  describedBy?: string;
  /** A class for the label (a layout hook, e.g. to span a form grid's columns). */
  className?: string;
}

export function TextField({
  label,
  value,
  onChange,
  placeholder,
  inputMode,
  describedBy,
  className,
}: TextFieldProps) {
  return (
    <label className={className}>
      {label}{' '}
      <input
        value={value}
        onChange={(e) => onChange(e.target.value)}
        placeholder={placeholder}
        inputMode={inputMode}
        aria-describedby={describedBy}
        autoComplete="off"
      />
    </label>
  );
}
