import { describe, expect, it } from 'vitest';
import { emptyComposed, fromLinkParams, pathWithQuery } from './composer-state';

describe('a link filling the console', () => {
  it('names no request without a path', () => {
    expect(fromLinkParams({ method: 'POST' })).toBeUndefined();
  });

  it('takes method, path with query, body, content type and headers', () => {
    const composed = fromLinkParams({
      method: 'patch',
      path: '/api/v1/namespaces/default/configmaps/a?fieldManager=me&dryRun=All',
      body: '{"data":{"x":"1"}}',
      contentType: 'application/merge-patch+json',
      headers: 'authorization: Bearer abcdef.0123456789abcdef\nX-Extra:  two words ',
    });
    expect(composed).toEqual({
      method: 'PATCH',
      path: '/api/v1/namespaces/default/configmaps/a',
      query: [
        ['fieldManager', 'me'],
        ['dryRun', 'All'],
      ],
      headers: [
        ['Accept', 'application/json'],
        ['Authorization', 'Bearer abcdef.0123456789abcdef'],
        ['X-Extra', 'two words'],
      ],
      contentType: 'application/merge-patch+json',
      body: '{"data":{"x":"1"}}',
    });
    expect(pathWithQuery(composed!)).toBe(
      '/api/v1/namespaces/default/configmaps/a?fieldManager=me&dryRun=All',
    );
  });

  it('replaces the default Accept when the link names one, and defaults the rest', () => {
    const composed = fromLinkParams({ path: '/metrics', headers: 'Accept: text/plain' });
    expect(composed?.method).toBe('GET');
    expect(composed?.headers).toEqual([['Accept', 'text/plain']]);
    expect(composed?.contentType).toBe(emptyComposed.contentType);
    expect(composed?.body).toBe('');
  });
});
