/**
 * Loads a workshop file into the sandbox with progress: a scenario is
 * reset-then-create, an exported state is imported. Afterwards discovery is
 * read again and the app opens the scenario's start view (the explorer by
 * default, in the scenario's first namespace).
 */

import { useState } from 'react';
import { useClient } from '../client-context';
import { useDiscovery } from '../app/DiscoveryContext';
import { navigate, parseRoute } from '../lib/route';
import { importState, loadScenario } from './load-scenario';
import type { WorkshopFile } from './scenario-file';

export interface LoaderState {
  progress: { label: string; done: number; total: number } | undefined;
  error: unknown;
  done: string | undefined;
}

export function useScenarioLoader() {
  const client = useClient();
  const discovery = useDiscovery();
  const [state, setState] = useState<LoaderState>({ progress: undefined, error: undefined, done: undefined });

  async function load(file: WorkshopFile): Promise<void> {
    const progress = (done: number, total: number, label: string) =>
      setState({ progress: { label, done, total }, error: undefined, done: undefined });
    progress(0, 0, 'Starting');
    try {
      if (file.kind === 'state') {
        await importState(client, file.text, progress);
        discovery.reload();
        setState({ progress: undefined, error: undefined, done: 'The state was imported.' });
        return;
      }
      await loadScenario(client, file.scenario, progress);
      discovery.reload();
      setState({ progress: undefined, error: undefined, done: `Loaded “${file.scenario.title}”.` });
      const open = file.scenario.open === undefined ? undefined : parseRoute(file.scenario.open);
      if (open !== undefined) navigate(open.view, open.params);
      else {
        const namespace = file.scenario.objects.find((o) => o.object.kind === 'Namespace')?.object.metadata
          ?.name;
        navigate('explorer', { ns: namespace });
      }
    } catch (error) {
      setState({ progress: undefined, error, done: undefined });
    }
  }

  return { ...state, load };
}
