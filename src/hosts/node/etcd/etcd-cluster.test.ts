// The storage conformance suite against a three-member etcd cluster, the store given every member's URL: its calls
// go round the members (server-rotation.ts) while its watch stays on one, so a write acknowledged by one member is
// heard from another. As in etcd-storage.test.ts, an open store has a cluster to itself, and a closed store's
// cluster serves the next one under a prefix of its own.
import { afterAll, describe, it } from 'vitest';
import { describeStorageConformance } from '../../../storage/conformance';
import { etcdSkipReason, startEtcdCluster, type EtcdMember } from '../../../../test/support/etcd';
import { createEtcdStorage } from './etcd-storage';

const skip = etcdSkipReason();
if (skip) console.log(`SKIP etcd cluster conformance: ${skip}`);

const clusters: EtcdMember[][] = [];
const idle: EtcdMember[][] = [];
let stores = 0;
afterAll(async () => {
  await Promise.all(clusters.flat().map((m) => m.stop()));
});

async function cluster(): Promise<EtcdMember[]> {
  const free = idle.pop();
  if (free !== undefined) return free;
  const started = await startEtcdCluster(3);
  clusters.push(started);
  return started;
}

if (skip) {
  describe.skip(`storage conformance: etcd cluster (${skip})`, () => {
    it('needs etcd', () => undefined);
  });
} else {
  describeStorageConformance(
    'etcd, three members',
    async () => {
      const own = await cluster();
      const store = await createEtcdStorage({
        servers: own.map((m) => m.url),
        prefix: `/registry-${++stores}`,
      });
      await store.clear();
      const close = store.close.bind(store);
      store.close = async () => {
        await close();
        idle.push(own);
      };
      return store;
    },
    { settingsTakeRevisions: true },
  );
}
