// The token cleaner against an in-process server: expired bootstrap token
// Secrets are deleted, by the controller's clock (moved, not waited for),
// a token is looked at again when it expires, and Secrets that are not
// bootstrap tokens or have no expiration stay.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, startHarness, tokenSecret, type Harness } from '../../test/support/bootstrap-tokens';
import { ApiError } from '../client/errors';
import { tokenCleaner } from './token-cleaner';
import type { Controller } from './types';

let h: Harness;
let cleaner: Controller;
const secrets = () => ({
  group: '',
  version: 'v1',
  resource: 'secrets',
  namespace: h.profile.systemNamespace,
});

beforeAll(async () => {
  h = await startHarness();
  cleaner = tokenCleaner(h.context());
  cleaner.start();
});
afterAll(async () => {
  cleaner.stop();
  await h.api.close();
});

async function exists(name: string): Promise<boolean> {
  try {
    await h.client.get({ ...secrets(), name });
    return true;
  } catch (e) {
    if (e instanceof ApiError && e.code === 404) return false;
    throw e;
  }
}

const gone = (name: string) =>
  eventually(async () => ((await exists(name)) ? undefined : true), `${name} deleted`);

describe('token cleaner', () => {
  it('deletes a token whose expiration has passed, and an unparseable one, but not others', async () => {
    await h.client.create(
      secrets(),
      tokenSecret(h.profile, 'keep01', '0123456789abcdef', { expiration: '2020-01-01T00:00:00Z' }, 'Opaque'),
    );
    await h.client.create(secrets(), tokenSecret(h.profile, 'keep02', '0123456789abcdef', {}));
    await h.client.create(
      secrets(),
      tokenSecret(h.profile, 'old001', '0123456789abcdef', { expiration: '2020-01-01T00:00:00Z' }),
    );
    await h.client.create(
      secrets(),
      tokenSecret(h.profile, 'old002', '0123456789abcdef', { expiration: 'soon' }),
    );
    await gone('bootstrap-token-old001');
    await gone('bootstrap-token-old002');
    await cleaner.idle();
    expect(await exists('bootstrap-token-keep01')).toBe(true);
    expect(await exists('bootstrap-token-keep02')).toBe(true);
  });

  it('goes by its clock: a token an hour from expiry is deleted once the clock has moved past it', async () => {
    const expiration = new Date(h.clock.now().getTime() + 3_600_000).toISOString().replace(/\.\d+Z$/, 'Z');
    await h.client.create(secrets(), tokenSecret(h.profile, 'later1', '0123456789abcdef', { expiration }));
    await eventually(async () => ((await exists('bootstrap-token-later1')) ? true : undefined), 'created');
    await cleaner.idle();
    expect(await exists('bootstrap-token-later1')).toBe(true);
    h.clock.shift = 2 * 3_600_000;
    try {
      // Nothing else changes: the cleaner's once-a-second look at the clock finds the expiry passed.
      await gone('bootstrap-token-later1');
    } finally {
      h.clock.shift = 0;
    }
  });

  it('looks at a token again when it expires', async () => {
    const expiration = new Date(Math.ceil((Date.now() + 1000) / 1000) * 1000)
      .toISOString()
      .replace('.000Z', 'Z');
    await h.client.create(secrets(), tokenSecret(h.profile, 'soon01', '0123456789abcdef', { expiration }));
    await gone('bootstrap-token-soon01');
  });
});
