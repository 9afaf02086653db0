// Two stores on one etcd member and prefix, as two replicas: what one compacts, the other's history read at that
// revision learns from etcd itself (the watch etcd cancels), and answers as Compacted; a store's single writes,
// compaction and history reads all go over the one client (decision 0135).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdSkipReason, startEtcd, type EtcdMember } from '../../../../test/support/etcd';
import type { KubeObject } from '../../../api/meta';
import { StorageError } from '../../../storage/types';
import { createEtcdStorage, type EtcdStorage } from './etcd-storage';

const skip = etcdSkipReason();
if (skip) console.log(`SKIP etcd two-store tests: ${skip}`);

const cm = (name: string, n: string): KubeObject =>
  ({
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace: 'default' },
    data: { n },
  }) as KubeObject;

describe.skipIf(skip !== undefined)('two etcd stores on one prefix', () => {
  let member: EtcdMember;
  let first: EtcdStorage;
  let second: EtcdStorage;

  beforeAll(async () => {
    member = await startEtcd();
    first = await createEtcdStorage({ servers: [member.url] });
    second = await createEtcdStorage({ servers: [member.url] });
  });

  afterAll(async () => {
    await first?.close();
    await second?.close();
    await member?.stop();
  });

  it("reads the other's writes as history, then answers Compacted once the other compacted", async () => {
    const key = '/configmaps/default/a';
    const created = await first.create(key, cm('a', '1'));
    const updated = await first.update(key, cm('a', '2'), created.revision);
    const changes = await second.changesSince(created.revision - 1);
    expect(changes.map((c) => [c.type, c.revision])).toEqual([
      ['ADDED', created.revision],
      ['MODIFIED', updated.revision],
    ]);
    await first.compact(updated.revision);
    expect(await first.compactedRevision()).toBe(updated.revision);
    // The second store still believes nothing is compacted: etcd's cancelled watch tells it.
    const error = await second.changesSince(created.revision - 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StorageError);
    expect((error as StorageError).code).toBe('Compacted');
    expect(await second.compactedRevision()).toBe(updated.revision);
    // Compacting again at an already compacted revision is not an error, in either store.
    await second.compact(created.revision);
    await first.compact(updated.revision);
  });
});
