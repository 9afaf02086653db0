/**
 * The submit handling the forms share: the page does not navigate, the last
 * failure is cleared and the form is busy while the action runs, and a
 * failure is kept for the form to show beside it.
 */

import { useState, type FormEvent } from 'react';

export interface FormAction {
  busy: boolean;
  /** The last failure, until the next submit. */
  error: unknown;
  onSubmit: (event: FormEvent) => void;
}

export function useFormAction(action: () => Promise<void>): FormAction {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setBusy(true);
    action()
      .catch((e: unknown) => setError(e))
      .finally(() => setBusy(false));
  };
  return { busy, error, onSubmit };
}
