/**
 * The protobuf codec is loaded on first use: the first request of a fresh
 * server that names protobuf, in any letter case (media types compare
 * case-insensitively), is answered in protobuf, and a protobuf body decodes.
 * This file must not load the codec itself, so the server's own load is what
 * is tested.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { protobufLibrary } from '../src/http/protobuf/library';
import { startTestHost, type TestHost } from './support/host';

describe('the lazily loaded protobuf codec', () => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ profile: 'kubernetes' });
  });
  afterAll(async () => {
    await host.close();
  });

  it('is loaded by the first request that asks for protobuf in mixed case', async () => {
    expect(protobufLibrary.loaded).toBe(false);
    const res = await host.request('GET', '/api/v1/namespaces/default', {
      headers: { accept: 'Application/Vnd.Kubernetes.Protobuf' },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/vnd.kubernetes.protobuf');
    expect(protobufLibrary.loaded).toBe(true);
  });
});
