import { describe, expect, it } from 'vitest';
import { parseRequestInfo } from './request-info';

const info = (method: string, url: string) => parseRequestInfo(method, new URL(url, 'https://orch.test'));

describe('parseRequestInfo', () => {
  it('answers a path asked again with the same info, which no one can change', () => {
    const first = info('GET', '/api/v1/namespaces/default/configmaps/a?pretty=true');
    expect(first).toMatchObject({ verb: 'get', namespace: 'default', resource: 'configmaps', name: 'a' });
    expect(info('GET', '/api/v1/namespaces/default/configmaps/a')).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    expect(info('DELETE', '/api/v1/namespaces/default/configmaps/a').verb).toBe('delete');
    expect(info('DELETE', '/api/v1/namespaces/default/configmaps').verb).toBe('deletecollection');
  });

  it('reads the query of a collection GET every time (list or watch)', () => {
    expect(info('GET', '/api/v1/namespaces/default/pods').verb).toBe('list');
    expect(info('GET', '/api/v1/namespaces/default/pods?watch=true').verb).toBe('watch');
    expect(info('GET', '/api/v1/namespaces/default/pods?watch=false').verb).toBe('list');
    expect(info('GET', '/api/v1/namespaces/default/pods?watch=1').verb).toBe('watch');
    expect(info('GET', '/api/v1/namespaces/default/pods').verb).toBe('list');
  });

  it('keeps paths apart, past its bound too', () => {
    for (let i = 0; i < 3000; i++)
      expect(info('GET', `/api/v1/namespaces/n${i}/pods/p`)).toMatchObject({ namespace: `n${i}`, name: 'p' });
    expect(info('GET', '/healthz')).toEqual({ isResourceRequest: false, path: '/healthz', verb: 'get' });
  });
});
