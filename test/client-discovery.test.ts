/**
 * The client's discovery against the server, under both naming profiles: the
 * aggregated documents (two requests) give the same group versions and
 * resources as reading `/api`, `/apis` and every group version's list.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../src/client/index';
import { discover } from '../src/client/discovery';
import type { Discovery } from '../src/client/discovery-types';
import { fetchWithCA, startTestHost, type TestHost } from './support/host';

/** What both forms carry (the lists add storage version hashes and subresources, which discovery drops). */
function comparable(d: Discovery) {
  return d.groupVersions.map((gv) => ({
    ...gv,
    resources: gv.resources.map((r) => ({
      name: r.name,
      singularName: r.singularName,
      namespaced: r.namespaced,
      kind: r.kind,
      verbs: [...r.verbs].sort(),
      shortNames: r.shortNames ?? [],
      categories: r.categories ?? [],
    })),
  }));
}

describe.each(['orch', 'kubernetes'] as const)('client discovery (%s profile)', (profile) => {
  let host: TestHost;
  beforeAll(async () => {
    host = await startTestHost({ profile });
  });
  afterAll(async () => {
    await host.close();
  });

  it('reads the aggregated documents in two requests, equal to the per-group lists', async () => {
    const paths: string[] = [];
    const client = createClient({
      baseUrl: host.url,
      fetch: (request) => {
        paths.push(new URL(request.url).pathname);
        return fetchWithCA(request.url, { method: request.method, headers: request.headers });
      },
    });
    const aggregated = await client.discovery();
    expect(paths).toEqual(['/api', '/apis']);
    expect(aggregated.failed).toEqual([]);

    // The older way: a server that ignores the aggregated media types.
    const lists = await discover(async <T>(path: string) => {
      const response = await fetchWithCA(`${host.url}${path}`, { headers: { accept: 'application/json' } });
      return (await response.json()) as T;
    });
    expect(comparable(aggregated)).toEqual(comparable(lists));
    expect(aggregated.groupVersions.length).toBeGreaterThan(20);
  });
});
