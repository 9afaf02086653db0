/**
 * A scenario that arrived by link (`#/workshop?scenario=<url>` or
 * `?scenario-data=<packed>`): shown at the top of the workshop view with a
 * Load button, never loaded without the attendee's click, since loading
 * replaces their sandbox.
 */

import { useEffect, useState } from 'react';
import { ErrorNotice } from '../common/ErrorNotice';
import { decodeScenario, readWorkshopFile, type WorkshopFile } from './scenario-file';
import { ScenarioSummary } from './ScenarioSummary';
import { useScenarioLoader } from './useScenarioLoader';

export function SharedScenarioBanner({ url, data }: { url: string | undefined; data: string | undefined }) {
  const loader = useScenarioLoader();
  const [file, setFile] = useState<WorkshopFile | undefined>(undefined);
  const [error, setError] = useState<unknown>(undefined);
  const [dismissed, setDismissed] = useState(false);

  useEffect(() => {
    if (url === undefined && data === undefined) return;
    let live = true;
    setDismissed(false);
    setFile(undefined);
    setError(undefined);
    const text =
      data !== undefined
        ? decodeScenario(data)
        : fetch(url as string).then((response) => {
            if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
            return response.text();
          });
    text
      .then((t) => live && setFile(readWorkshopFile(t, url ?? 'Shared scenario')))
      .catch((e: unknown) => live && setError(e));
    return () => {
      live = false;
    };
  }, [url, data]);

  if ((url === undefined && data === undefined) || dismissed) return null;
  return (
    <section className="card shared-scenario" aria-label="Shared scenario">
      <h3>A scenario was shared with you</h3>
      {error !== undefined ? (
        <ErrorNotice title="The shared scenario could not be read" error={error} />
      ) : null}
      {file === undefined && error === undefined ? <p role="status">Reading the scenario…</p> : null}
      {file !== undefined ? (
        <ScenarioSummary
          file={file}
          loader={loader}
          onLoad={() => void loader.load(file)}
          onDismiss={() => setDismissed(true)}
        />
      ) : null}
    </section>
  );
}
