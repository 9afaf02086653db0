/**
 * Runs an async load when its inputs change and on demand (`reload`). A
 * reload keeps the previous value visible until the new one arrives (no
 * flicker after a create or delete); a change of inputs clears it, so that a
 * table never shows the objects of the kind that was selected before.
 */

import { useCallback, useEffect, useRef, useState, type DependencyList } from 'react';

export interface AsyncResult<T> {
  value: T | undefined;
  error: unknown;
  loading: boolean;
  reload: () => void;
}

export function useAsync<T>(load: () => Promise<T>, deps: DependencyList): AsyncResult<T> {
  const [generation, setGeneration] = useState(0);
  const [state, setState] = useState<{ value: T | undefined; error: unknown; loading: boolean }>({
    value: undefined,
    error: undefined,
    loading: true,
  });
  const loadRef = useRef(load);
  loadRef.current = load;
  const depsKey = JSON.stringify(deps);
  const lastDepsKey = useRef(depsKey);

  useEffect(() => {
    let live = true;
    const inputsChanged = lastDepsKey.current !== depsKey;
    lastDepsKey.current = depsKey;
    setState((previous) => ({
      value: inputsChanged ? undefined : previous.value,
      error: undefined,
      loading: true,
    }));
    loadRef.current().then(
      (value) => live && setState({ value, error: undefined, loading: false }),
      (error: unknown) => live && setState({ value: undefined, error, loading: false }),
    );
    return () => {
      live = false;
    };
  }, [depsKey, generation]);

  const reload = useCallback(() => setGeneration((n) => n + 1), []);
  return { ...state, reload };
}
