// Runs the storage conformance suite against the etcd backend. Each store has a member to itself while it is
// open, as on a fresh member: a closed store's member serves the next store (under a prefix of its own, cleared
// to revision 0), so a run starts a member or two, not one per test (a start is most of a test's time).
import { afterAll } from 'vitest';
import { describe, it } from 'vitest';
import { describeStorageConformance } from '../../../storage/conformance';
import { etcdSkipReason, startEtcd, type EtcdMember } from '../../../../test/support/etcd';
import { createEtcdStorage } from './etcd-storage';

const skip = etcdSkipReason();
if (skip) console.log(`SKIP etcd storage conformance: ${skip}`);

const members: EtcdMember[] = [];
/** Members whose store has closed. */
const idle: EtcdMember[] = [];
let stores = 0;
afterAll(async () => {
  await Promise.all(members.map((m) => m.stop()));
});

async function member(): Promise<EtcdMember> {
  const free = idle.pop();
  if (free !== undefined) return free;
  const started = await startEtcd();
  members.push(started);
  return started;
}

if (skip) {
  describe.skip(`storage conformance: etcd (${skip})`, () => {
    it('needs etcd', () => undefined);
  });
} else {
  describeStorageConformance(
    'etcd',
    async () => {
      const own = await member();
      const store = await createEtcdStorage({ servers: [own.url], prefix: `/registry-${++stores}` });
      // A fresh store reads as empty at revision 0 (see etcd-storage.ts: the base of a cleared store).
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
