// Runs the storage conformance suite against the etcd backend, each store on a fresh etcd member.
import { afterAll } from 'vitest';
import { describe, it } from 'vitest';
import { describeStorageConformance } from '../../../storage/conformance';
import { etcdSkipReason, startEtcd, type EtcdMember } from '../../../../test/support/etcd';
import { createEtcdStorage } from './etcd-storage';

const skip = etcdSkipReason();
if (skip) console.log(`SKIP etcd storage conformance: ${skip}`);

const members: EtcdMember[] = [];
afterAll(async () => {
  await Promise.all(members.map((m) => m.stop()));
});

if (skip) {
  describe.skip(`storage conformance: etcd (${skip})`, () => {
    it('needs etcd', () => undefined);
  });
} else {
  describeStorageConformance(
    'etcd',
    async () => {
      const member = await startEtcd();
      members.push(member);
      const store = await createEtcdStorage({ servers: [member.url], prefix: '/registry' });
      // A fresh store reads as empty at revision 0 (see etcd-storage.ts: the base of a cleared store).
      await store.clear();
      // The member goes with its store, so a run holds a member or two at a time, not one per test.
      const close = store.close.bind(store);
      store.close = async () => {
        await close();
        await member.stop();
      };
      return store;
    },
    { settingsTakeRevisions: true },
  );
}
