// The client with several --etcd-servers, against two separate members that hold different values under one key
// (so each answer says which member gave it): calls go to each in turn; while one is down every call is answered
// by the other; once it is back, after its rest, it gets calls again.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { etcdSkipReason, startEtcd, type EtcdMember } from '../../../../test/support/etcd';
import { EtcdKvClient } from './kv-client';

const skip = etcdSkipReason();
if (skip) console.log(`SKIP etcd client with several servers: ${skip}`);

const key = Buffer.from('/who');

describe.skipIf(skip !== undefined)('the etcd client with several servers', () => {
  const members: EtcdMember[] = [];
  let client: EtcdKvClient;

  const who = async (): Promise<string> => (await client.range({ key })).kvs[0]?.value.toString() ?? '';

  beforeAll(async () => {
    members.push(await startEtcd(), await startEtcd());
    for (const [i, member] of members.entries()) {
      const one = new EtcdKvClient({ servers: [member.url], dialTimeoutMs: 5000 });
      await one.txn({ success: [{ request_put: { key, value: Buffer.from(`member ${i}`) } }] });
      one.close();
    }
    client = new EtcdKvClient({ servers: members.map((m) => m.url), dialTimeoutMs: 5000, restMs: 100 });
  });

  afterAll(async () => {
    client?.close();
    await Promise.all(members.map((m) => m.stop()));
  });

  it('sends calls to each server in turn', async () => {
    const answers: string[] = [];
    for (let i = 0; i < 4; i++) answers.push(await who());
    expect(answers).toEqual(['member 0', 'member 1', 'member 0', 'member 1']);
  });

  it('answers every call from the other server while one is down, and uses it again once back', async () => {
    await (members[1] as EtcdMember).kill();
    const answers: string[] = [];
    for (let i = 0; i < 6; i++) answers.push(await who());
    expect(new Set(answers)).toEqual(new Set(['member 0']));
    await (members[1] as EtcdMember).restart();
    const seen = new Set<string>();
    for (let i = 0; i < 200 && seen.size < 2; i++) {
      seen.add(await who());
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(seen).toEqual(new Set(['member 0', 'member 1']));
  });
});
