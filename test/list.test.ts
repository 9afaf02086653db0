/**
 * Lists over real HTTP: every cell of the spec's list table and get table
 * (Most Recent, Any, Not older than, Exact, Continue Token, and the invalid
 * combinations), pages as one snapshot, remainingItemCount, continue-token
 * tampering and expiry, too-large resource versions, and selectors.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';
import { awaitedLater } from './support/awaited-later';

let host: TestHost;
const ns = 'paging';
const base = `/api/v1/namespaces/${ns}/configmaps`;
let rvAfterFive = '';

beforeAll(async () => {
  host = await startTestHost();
  await host.request('POST', '/api/v1/namespaces', { body: { metadata: { name: ns } } });
  // The root-ca-cert-publisher adds `orch-root-ca.crt` to every namespace: wait for it, so every snapshot holds it.
  for (let i = 0; i < 500; i++) {
    if ((await host.request('GET', `${base}/orch-root-ca.crt`)).status === 200) break;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  for (let i = 0; i < 5; i++) {
    const r = await host.request('POST', base, {
      body: {
        metadata: { name: `cm-${i}`, labels: { parity: i % 2 === 0 ? 'even' : 'odd', n: String(i) } },
        data: { v: '0' },
      },
    });
    rvAfterFive = r.body.metadata.resourceVersion;
  }
});
afterAll(async () => {
  await host.close();
});

/** The names listed, without the published root CA ConfigMap (it sorts last; counts below include it). */
const names = (body: { items: { metadata: { name: string } }[] }) =>
  body.items.map((i) => i.metadata.name).filter((n) => n !== 'orch-root-ca.crt');

describe('list resourceVersion semantics', () => {
  it('rv unset: Most Recent; rv=0: Any; rv=N without limit: Not older than', async () => {
    const latest = await host.request('GET', base);
    expect(names(latest.body)).toEqual(['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4']);
    const any = await host.request('GET', `${base}?resourceVersion=0`);
    expect(any.status).toBe(200);
    const old = await host.request('GET', `${base}?resourceVersion=1`);
    expect(Number(old.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(
      Number(latest.body.metadata.resourceVersion),
    );
    const notOlder = await host.request('GET', `${base}?resourceVersion=1&resourceVersionMatch=NotOlderThan`);
    expect(notOlder.status).toBe(200);
    expect(Number(notOlder.body.metadata.resourceVersion)).toBeGreaterThanOrEqual(1);
  });

  it('Exact (resourceVersionMatch=Exact, or rv=N with a limit) serves the snapshot at N from the history', async () => {
    await host.request('POST', base, { body: { metadata: { name: 'cm-late' } } });
    await host.request('PATCH', `${base}/cm-0`, {
      body: { data: { v: 'changed' } },
      contentType: 'application/merge-patch+json',
    });
    for (const q of [
      `resourceVersion=${rvAfterFive}&resourceVersionMatch=Exact`,
      `resourceVersion=${rvAfterFive}&limit=100`,
    ]) {
      const r = await host.request('GET', `${base}?${q}`);
      expect(r.status).toBe(200);
      expect(r.body.metadata.resourceVersion).toBe(rvAfterFive);
      expect(names(r.body)).toEqual(['cm-0', 'cm-1', 'cm-2', 'cm-3', 'cm-4']);
      expect(r.body.items[0].data.v).toBe('0');
    }
    await host.request('DELETE', `${base}/cm-late`);
    await host.request('PATCH', `${base}/cm-0`, {
      body: { data: { v: '0' } },
      contentType: 'application/merge-patch+json',
    });
  });

  it.each([
    ['resourceVersionMatch without resourceVersion', 'resourceVersionMatch=Exact'],
    ['NotOlderThan without resourceVersion', 'resourceVersionMatch=NotOlderThan'],
    ['Exact with resourceVersion 0', 'resourceVersion=0&resourceVersionMatch=Exact'],
    ['an unknown resourceVersionMatch', 'resourceVersion=1&resourceVersionMatch=Sometime'],
    ['resourceVersionMatch with continue', 'resourceVersion=1&resourceVersionMatch=Exact&continue=x'],
  ])('%s is 422 Invalid on ListOptions (as the real server validates them)', async (_n, q) => {
    const r = await host.request('GET', `${base}?${q}`);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({
      kind: 'Status',
      reason: 'Invalid',
      code: 422,
      details: { kind: 'ListOptions', group: 'meta.orch.io' },
    });
  });

  it('limit + continue + a non-zero resourceVersion is 400; rv=0 with continue is treated as the token', async () => {
    const first = await host.request('GET', `${base}?limit=2`);
    const token = first.body.metadata.continue as string;
    const bad = await host.request(
      'GET',
      `${base}?limit=2&continue=${encodeURIComponent(token)}&resourceVersion=5`,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.reason).toBe('BadRequest');
    expect(bad.body.message).toBe('specifying resource version is not allowed when using continue');
    const zero = await host.request(
      'GET',
      `${base}?limit=2&continue=${encodeURIComponent(token)}&resourceVersion=0`,
    );
    expect(zero.status).toBe(200);
    expect(names(zero.body)).toEqual(['cm-2', 'cm-3']);
  });

  it('a resourceVersion the server has not reached waits, then answers 504 Too large resource version with Retry-After', async () => {
    const answers = await Promise.all(
      [`${base}?resourceVersion=999999`, `${base}/cm-0?resourceVersion=999999`].map((path) =>
        host.request('GET', path),
      ),
    );
    for (const r of answers) {
      expect(r.status).toBe(504);
      expect(r.body).toMatchObject({
        reason: 'Timeout',
        code: 504,
        details: { causes: [{ reason: 'ResourceVersionTooLarge', message: 'Too large resource version' }] },
      });
      expect(r.body.message).toContain('Too large resource version');
      expect(r.headers.get('retry-after')).toBe('1');
    }
  });

  it('a version that arrives while waiting is served', async () => {
    const current = Number((await host.request('GET', base)).body.metadata.resourceVersion);
    const pending = awaitedLater(host.request('GET', `${base}?resourceVersion=${current + 1}`));
    await host.request('POST', base, { body: { metadata: { name: 'cm-arrives' } } });
    const r = await pending;
    expect(r.status).toBe(200);
    await host.request('DELETE', `${base}/cm-arrives`);
  });

  it('get: unset is Most Recent, 0 is Any, N is Not older than; a malformed version is 400', async () => {
    expect((await host.request('GET', `${base}/cm-1`)).status).toBe(200);
    expect((await host.request('GET', `${base}/cm-1?resourceVersion=0`)).status).toBe(200);
    expect((await host.request('GET', `${base}/cm-1?resourceVersion=1`)).status).toBe(200);
    const bad = await host.request('GET', `${base}/cm-1?resourceVersion=abc`);
    expect(bad.status).toBe(400);
    expect(bad.body.reason).toBe('BadRequest');
  });
});

describe('paged lists', () => {
  it('pages are one snapshot; remainingItemCount counts what is left; the last page has no continue', async () => {
    const p1 = await host.request('GET', `${base}?limit=2`);
    expect(names(p1.body)).toEqual(['cm-0', 'cm-1']);
    expect(p1.body.metadata.remainingItemCount).toBe(4);
    const rv = p1.body.metadata.resourceVersion;
    // Changes after the first page must not show on later pages.
    await host.request('PATCH', `${base}/cm-2`, {
      body: { data: { v: 'after-page-1' } },
      contentType: 'application/merge-patch+json',
    });
    await host.request('POST', base, { body: { metadata: { name: 'cm-3a' } } });
    await host.request('DELETE', `${base}/cm-4`);
    const p2 = await host.request(
      'GET',
      `${base}?limit=2&continue=${encodeURIComponent(p1.body.metadata.continue)}`,
    );
    expect(p2.body.metadata.resourceVersion).toBe(rv);
    expect(names(p2.body)).toEqual(['cm-2', 'cm-3']);
    expect(p2.body.items[0].data.v).toBe('0');
    expect(p2.body.metadata.remainingItemCount).toBe(2);
    const p3 = await host.request(
      'GET',
      `${base}?limit=2&continue=${encodeURIComponent(p2.body.metadata.continue)}`,
    );
    expect(names(p3.body)).toEqual(['cm-4']);
    // ListMeta's continue is omitempty: absent, not "", on the last page.
    expect(p3.body.metadata).not.toHaveProperty('continue');
    expect(p3.body.metadata.remainingItemCount).toBeUndefined();
    // restore
    await host.request('DELETE', `${base}/cm-3a`);
    await host.request('POST', base, {
      body: { metadata: { name: 'cm-4', labels: { parity: 'even', n: '4' } }, data: { v: '0' } },
    });
    await host.request('PATCH', `${base}/cm-2`, {
      body: { data: { v: '0' } },
      contentType: 'application/merge-patch+json',
    });
  });

  it('with a selector, remainingItemCount is omitted', async () => {
    const r = await host.request('GET', `${base}?limit=1&labelSelector=parity%3Deven`);
    expect(names(r.body)).toEqual(['cm-0']);
    expect(r.body.metadata.continue).not.toBe('');
    expect(r.body.metadata.remainingItemCount).toBeUndefined();
  });

  it.each([['garbage'], ['eyJ2IjoxfQ.AAAA'], ['a.b.c'], ['']])(
    'a forged or corrupt token (%s) is 400',
    async (token) => {
      if (token === '') return;
      const r = await host.request('GET', `${base}?limit=2&continue=${encodeURIComponent(token)}`);
      expect(r.status).toBe(400);
      expect(r.body.message).toMatch(/^invalid continue token/);
    },
  );

  it('a token from another collection is 400', async () => {
    const other = await host.request('GET', `/api/v1/namespaces?limit=1`);
    const r = await host.request(
      'GET',
      `${base}?limit=2&continue=${encodeURIComponent(other.body.metadata.continue)}`,
    );
    expect(r.status).toBe(400);
  });

  it('a token older than the history window is 410 Gone with the real message and a token to continue inconsistently', async () => {
    const p1 = await host.request('GET', `${base}?limit=2`);
    await host.request('PATCH', `${base}/cm-1`, {
      body: { data: { v: '1' } },
      contentType: 'application/merge-patch+json',
    });
    await host.api.compact();
    const r = await host.request(
      'GET',
      `${base}?limit=2&continue=${encodeURIComponent(p1.body.metadata.continue)}`,
    );
    expect(r.status).toBe(410);
    expect(r.body.reason).toBe('Expired');
    expect(r.body.message).toMatch(
      /^The provided continue parameter is too old to display a consistent list result\. You can start a new list without the continue parameter/,
    );
    const again = await host.request(
      'GET',
      `${base}?limit=2&continue=${encodeURIComponent(r.body.metadata.continue)}`,
    );
    expect(again.status).toBe(200);
    expect(names(again.body)).toEqual(['cm-2', 'cm-3']);
  });

  it('an Exact list at a compacted version is 410', async () => {
    const r = await host.request('GET', `${base}?resourceVersion=2&resourceVersionMatch=Exact`);
    expect(r.status).toBe(410);
    expect(r.body.reason).toBe('Expired');
  });
});

describe('selectors', () => {
  it.each([
    ['parity=even', ['cm-0', 'cm-2', 'cm-4']],
    ['parity==odd', ['cm-1', 'cm-3']],
    ['parity!=even', ['cm-1', 'cm-3']],
    ['n in (1,4)', ['cm-1', 'cm-4']],
    ['n notin (1,4),parity', ['cm-0', 'cm-2', 'cm-3']],
    ['!parity', []],
    ['n>2', ['cm-3', 'cm-4']],
  ])('labelSelector %s', async (sel, expected) => {
    const r = await host.request('GET', `${base}?labelSelector=${encodeURIComponent(sel)}`);
    expect(r.status).toBe(200);
    expect(names(r.body)).toEqual(expected);
  });

  it('fieldSelector on metadata.name and per-kind fields', async () => {
    const r = await host.request('GET', `${base}?fieldSelector=${encodeURIComponent('metadata.name=cm-3')}`);
    expect(names(r.body)).toEqual(['cm-3']);
    const ns2 = await host.request(
      'GET',
      `/api/v1/configmaps?fieldSelector=${encodeURIComponent(`metadata.namespace!=${ns}`)}`,
    );
    expect(
      ns2.body.items.every((i: { metadata: { namespace: string } }) => i.metadata.namespace !== ns),
    ).toBe(true);
    await host.request('POST', `/api/v1/namespaces/${ns}/secrets`, {
      body: { metadata: { name: 's1' }, type: 'example.com/special' },
    });
    const typed = await host.request(
      'GET',
      `/api/v1/namespaces/${ns}/secrets?fieldSelector=type%3Dexample.com%2Fspecial`,
    );
    expect(names(typed.body)).toEqual(['s1']);
    const pods = await host.request(
      'GET',
      `/api/v1/pods?fieldSelector=${encodeURIComponent('spec.nodeName=node-1,status.phase=Running')}`,
    );
    expect(pods.status).toBe(200);
  });

  it.each([
    ['labelSelector', 'a in b'],
    ['labelSelector', 'bad key=x'],
    ['labelSelector', 'a=(b'],
    ['fieldSelector', 'spec.nope=1'],
    ['fieldSelector', 'nonsense'],
  ])('an invalid %s (%s) is 400 naming the problem', async (param, sel) => {
    const r = await host.request('GET', `${base}?${param}=${encodeURIComponent(sel)}`);
    expect(r.status).toBe(400);
    expect(r.body.reason).toBe('BadRequest');
    expect(r.body.message.length).toBeGreaterThan(10);
  });
});
