/**
 * One lesson's live state for React: the engine's run (src/lessons/run.ts)
 * made once per lesson, loaded, checking live while its page is shown and
 * stopped when it goes; its state read with useSyncExternalStore.
 */

import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { LessonDocument } from '../../lessons/format';
import type { LessonHost } from '../../lessons/host';
import { LessonRun, type RunState } from '../../lessons/run';

export function useLessonRun(
  lesson: LessonDocument,
  host: LessonHost,
  active: boolean,
): { run: LessonRun; state: RunState; loaded: boolean; error: unknown } {
  const run = useMemo(() => new LessonRun(lesson, host), [lesson, host]);
  const [loaded, setLoaded] = useState(false);
  const [error, setError] = useState<unknown>(undefined);
  useEffect(() => {
    let live = true;
    setLoaded(false);
    run.load().then(
      () => live && setLoaded(true),
      (e: unknown) => live && setError(e),
    );
    return () => {
      live = false;
      run.stop();
    };
  }, [run]);
  useEffect(() => {
    if (!loaded) return;
    if (active) run.activate();
    else run.stop();
  }, [run, loaded, active]);
  const state = useSyncExternalStore(
    (listener) => run.subscribe(listener),
    () => run.state(),
  );
  return { run, state, loaded, error };
}
