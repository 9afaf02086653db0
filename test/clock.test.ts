/**
 * The learner's clock moves what expires: a bound service-account token
 * stops authenticating once its expiry has passed on the server's clock,
 * and so does a client certificate past its notAfter — without waiting.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestHost, type TestHost } from './support/host';

let host: TestHost;
beforeAll(async () => {
  host = await startTestHost();
});
afterAll(async () => host?.close());

const advance = (duration: string) =>
  host.request('POST', '/sandbox/v1/clock', { body: { advance: duration } });

it('expires a bound token when the clock passes its expiry', async () => {
  const issued = await host.request('POST', '/api/v1/namespaces/default/serviceaccounts/default/token', {
    body: { apiVersion: 'authentication.orch.io/v1', kind: 'TokenRequest', spec: { expirationSeconds: 600 } },
  });
  expect(issued.status, issued.text).toBe(201);
  const token: string = issued.body.status.token;
  expect((await host.request('GET', '/api', { as: token })).status).toBe(200);
  await advance('9m');
  expect((await host.request('GET', '/api', { as: token })).status).toBe(200);
  await advance('2m');
  const late = await host.request('GET', '/api', { as: token });
  expect([late.status, late.body.message]).toEqual([401, 'Unauthorized']);
});

it('expires a client certificate when the clock passes its notAfter', async () => {
  expect((await host.request('GET', '/api', { as: 'admin-cert' })).status).toBe(200);
  // The sandbox's client certificate is valid for a year.
  expect((await advance('8760h')).status).toBe(200);
  expect((await advance('48h')).status).toBe(200);
  expect((await host.request('GET', '/api', { as: 'admin-cert' })).status).toBe(401);
});

it("hands out the sandbox account's token again until 80 % of its year has passed, then a new one", async () => {
  const accountToken = async (query: string): Promise<string> => {
    const listed = await host.request('GET', `/sandbox/v1/identities${query}`);
    expect(listed.status, listed.text).toBe(200);
    const items: { name: string; token?: string }[] = listed.body.items;
    return items.find((i) => i.name === 'service-account')?.token ?? '';
  };
  const first = await accountToken('');
  expect(first).not.toBe('');
  // Every page load lists the identities: the same token, not a signature per list (deferred or full).
  expect(await accountToken('?certificates=deferred')).toBe(first);
  expect(await accountToken('')).toBe(first);
  expect((await advance('7000h')).status).toBe(200);
  expect(await accountToken('')).toBe(first);
  // Past 80 % of its 8760 h (7008 h): signed anew; both still authenticate until their own expiry.
  expect((await advance('10h')).status).toBe(200);
  const renewed = await accountToken('');
  expect(renewed).not.toBe(first);
  expect((await host.request('GET', '/api', { as: renewed })).status).toBe(200);
  expect((await host.request('GET', '/api', { as: first })).status).toBe(200);
});
