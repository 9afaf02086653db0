/**
 * A workshop file ready to load: what it holds and the button that loads
 * it (which replaces the sandbox's state, as it says), with the loader's
 * progress and outcome.
 */

import { ErrorNotice } from '../common/ErrorNotice';
import { ProgressBar } from '../common/ProgressBar';
import type { WorkshopFile } from './scenario-file';
import type { LoaderState } from './useScenarioLoader';

interface Props {
  file: WorkshopFile;
  loader: LoaderState;
  onLoad: () => void;
  onDismiss?: () => void;
}

export function ScenarioSummary({ file, loader, onLoad, onDismiss }: Props) {
  const running = loader.progress !== undefined;
  return (
    <div className="scenario-summary">
      {file.kind === 'state' ? (
        <p>
          <strong>A saved sandbox state.</strong> Loading it replaces everything in this sandbox.
        </p>
      ) : (
        <>
          <p>
            <strong>{file.scenario.title}</strong> — {file.scenario.objects.length} object
            {file.scenario.objects.length === 1 ? '' : 's'}
            {file.scenario.description !== undefined ? `: ${file.scenario.description}` : ''}
          </p>
          <p className="muted">Loading resets this sandbox, then creates them.</p>
        </>
      )}
      <div className="row">
        <button type="button" disabled={running} onClick={onLoad}>
          Load it
        </button>
        {onDismiss !== undefined ? (
          <button type="button" className="secondary" disabled={running} onClick={onDismiss}>
            Dismiss
          </button>
        ) : null}
      </div>
      {loader.progress !== undefined ? (
        <ProgressBar
          label={loader.progress.label}
          {...(loader.progress.total > 0 ? { value: loader.progress.done, max: loader.progress.total } : {})}
        />
      ) : null}
      {loader.done !== undefined ? (
        <p className="success" role="status">
          {loader.done}
        </p>
      ) : null}
      {loader.error !== undefined ? (
        <ErrorNotice title="The scenario did not load" error={loader.error} />
      ) : null}
    </div>
  );
}
