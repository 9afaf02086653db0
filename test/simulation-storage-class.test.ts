/**
 * The simulated cluster's default StorageClass (decision 0130): made when
 * the simulation starts, in either profile, as a cluster installer makes
 * one; none when the host is told `--default-storage-class=false` (a bare
 * kube-apiserver and controller manager, as Kubernetes' own kubectl suite
 * expects), and none without the simulation.
 */

import { afterEach, describe, expect, it } from 'vitest';
import type { ProfileName } from '../src/machinery/naming';
import { startTestHost, type TestHost } from './support/host';
import type { Json } from './support/workloads';

describe('the default StorageClass of the simulated cluster', () => {
  let host: TestHost | undefined;
  afterEach(async () => {
    await host?.close();
    host = undefined;
  });

  it.each<{
    name: string;
    profile: ProfileName;
    simulation: false | { settings: { nodes: number }; defaultStorageClass?: boolean };
    want: [string, string | undefined][];
  }>([
    {
      name: 'kubernetes profile, simulation with no nodes: standard, the default',
      profile: 'kubernetes',
      simulation: { settings: { nodes: 0 } },
      want: [['standard', 'true']],
    },
    {
      name: 'orch profile, simulation: standard, the default',
      profile: 'orch',
      simulation: { settings: { nodes: 0 } },
      want: [['standard', 'true']],
    },
    {
      name: 'kubernetes profile, defaultStorageClass false: none',
      profile: 'kubernetes',
      simulation: { settings: { nodes: 0 }, defaultStorageClass: false },
      want: [],
    },
    {
      name: 'kubernetes profile, no simulation: none',
      profile: 'kubernetes',
      simulation: false,
      want: [],
    },
  ])('$name', async ({ profile, simulation, want }) => {
    host = await startTestHost({ profile, simulation });
    await host.api.controllersIdle();
    const group = profile === 'kubernetes' ? 'storage.k8s.io' : 'storage.orch.io';
    const annotation =
      profile === 'kubernetes'
        ? 'storageclass.kubernetes.io/is-default-class'
        : 'storageclass.orch.io/is-default-class';
    const r = await host.request('GET', `/apis/${group}/v1/storageclasses`);
    expect(r.status, r.text).toBe(200);
    expect(
      (r.body.items as Json[]).map((c) => [c.metadata.name, c.metadata.annotations?.[annotation]]),
    ).toEqual(want);
  });
});
