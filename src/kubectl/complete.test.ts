import { describe, expect, it } from 'vitest';
import { complete, type CompletionSources } from './complete';

const sources: CompletionSources = {
  types: async () => ['deployments', 'daemonsets', 'nodes', 'pods'],
  names: async (type) => (type === 'nodes' ? ['n1', 'n2'] : type.startsWith('deploy') ? ['web'] : []),
};

describe('Tab completion of the control-plane commands', () => {
  it('offers the new top-level commands and rollout’s subcommands', async () => {
    expect(await complete(['ro'], sources)).toEqual(['rollout']);
    expect(await complete(['rollout', ''], sources)).toEqual([
      'history',
      'pause',
      'restart',
      'resume',
      'status',
      'undo',
    ]);
    expect(await complete(['set', 'i'], sources)).toEqual(['image']);
    expect(await complete(['dr'], sources)).toEqual(['drain']);
  });

  it('completes types and names after rollout subcommands, node names after drain', async () => {
    expect(await complete(['rollout', 'status', 'dep'], sources)).toEqual(['deployments']);
    expect(await complete(['rollout', 'undo', 'deployments', ''], sources)).toEqual(['web']);
    expect(await complete(['drain', 'n'], sources)).toEqual(['n1', 'n2']);
    expect(await complete(['rollout', 'status', '--ti'], sources)).toEqual(['--timeout']);
  });
});
