/**
 * `/metrics` does not grow with the request history: a made-up path, an
 * unknown group or subresource, an odd method, a garbage token or query
 * value never becomes a label value, for any family, whoever sends it. The
 * real server labels requests only for the routes it serves (resource and
 * subresource of served resources, verbs from a fixed list); the issue
 * found 13,000 anonymous requests making 1.1 million series. Two rounds of
 * the same kinds of made-up requests are sent: the second adds no series,
 * no label carries a made-up value, and the text does not grow but for the
 * digits of its counts.
 */

import { afterAll, beforeAll, expect, it } from 'vitest';
import { gunzipSync } from 'node:zlib';
import { request as undiciRequest, type Dispatcher } from 'undici';
import { fetchWithCA, initFor, startTestHost, type As, type TestHost } from './support/host';

let host: TestHost;

beforeAll(async () => {
  host = await startTestHost({ profile: 'kubernetes' });
});

afterAll(async () => {
  await host?.close();
});

/** One made-up request of each kind, numbered so that each round names paths never seen before. */
function madeUp(
  i: number,
): { method: string; path: string; as: As; body?: string; headers?: Record<string, string> }[] {
  const cm = JSON.stringify({ metadata: { name: `cm-${i}` } });
  return [
    // The reproduction: anonymous, a made-up resource in a real namespace (403).
    { method: 'GET', path: `/api/v1/namespaces/default/r${i}`, as: 'anonymous' },
    // The same as the administrator (404), an unknown group, version and subresource.
    { method: 'GET', path: `/api/v1/namespaces/default/r${i}`, as: 'admin' },
    { method: 'GET', path: `/apis/made${i}.example.com/v1/things`, as: 'admin' },
    { method: 'GET', path: `/apis/apps/v${i}/deployments`, as: 'admin' },
    { method: 'GET', path: `/api/v1/namespaces/default/configmaps/x/sub${i}`, as: 'admin' },
    { method: 'DELETE', path: `/api/v1/namespaces/n${i}/pods${i}/x/y/z`, as: 'anonymous' },
    // Garbage credentials (401) and an unknown method on a served resource.
    { method: 'GET', path: `/api/v1/namespaces/default/configmaps`, as: `garbage-token-${i}` },
    { method: `M${i}`, path: `/api/v1/namespaces/default/configmaps`, as: 'admin' },
    // A served resource with made-up names and query values: labelled by the resource, never by them.
    { method: 'GET', path: `/api/v1/namespaces/default/configmaps/name-${i}`, as: 'admin' },
    {
      method: 'POST',
      path: `/api/v1/namespaces/default/configmaps?dryRun=x${i}&fieldManager=m${i}`,
      as: 'admin',
      body: cm,
      headers: { 'content-type': 'application/json' },
    },
    // Non-resource paths.
    { method: 'GET', path: `/metrics${i}`, as: 'admin' },
    { method: 'GET', path: `/healthz/x${i}`, as: 'anonymous' },
  ];
}

async function round(from: number, count: number): Promise<void> {
  const requests = Array.from({ length: count }, (_, k) => madeUp(from + k)).flat();
  // A few at a time, as many clients would send them.
  for (let at = 0; at < requests.length; at += 16)
    await Promise.all(
      requests.slice(at, at + 16).map(async (r) => {
        const res = await fetchWithCA(
          `${host.url}${r.path}`,
          { method: r.method, ...(r.body !== undefined ? { body: r.body } : {}), headers: r.headers ?? {} },
          r.as,
        );
        await res.arrayBuffer();
        expect(res.status, `${r.method} ${r.path}`).toBeLessThan(500);
      }),
    );
}

/**
 * Series whose label is the kind a watch sent an event of: they appear when a kind's watch first sends
 * one — the in-process controllers' informers and the watches' bookmarks, on their own schedule while
 * the rounds run — so they are held to served kinds rather than to "none added".
 */
const watchEventFamily = /^apiserver_watch_events_(total|sizes)/;

async function series(): Promise<{ lines: Set<string>; watchEvents: Set<string>; bytes: number }> {
  const r = await host.request('GET', '/metrics');
  expect(r.status).toBe(200);
  const all = r.text.split('\n').filter((l) => l !== '' && !l.startsWith('#'));
  const others = all.filter((l) => !watchEventFamily.test(l));
  // The series, without its value.
  const key = (l: string): string => l.slice(0, l.lastIndexOf(' '));
  return {
    lines: new Set(others.map(key)),
    watchEvents: new Set(all.filter((l) => watchEventFamily.test(l)).map(key)),
    bytes: Buffer.byteLength(others.join('\n')),
  };
}

/** Every kind the server serves, from discovery (`group/Kind`). */
async function servedKinds(): Promise<Set<string>> {
  const kinds = new Set<string>();
  const versions: string[] = ['/api/v1'];
  const groups = (await host.request('GET', '/apis')).body as {
    groups: { versions: { groupVersion: string }[] }[];
  };
  for (const g of groups.groups) for (const v of g.versions) versions.push(`/apis/${v.groupVersion}`);
  for (const path of versions) {
    const list = (await host.request('GET', path)).body as {
      groupVersion: string;
      resources: { kind: string }[];
    };
    const group = list.groupVersion.includes('/') ? list.groupVersion.split('/')[0] : '';
    for (const r of list.resources) kinds.add(`${group}/${r.kind}`);
  }
  return kinds;
}

it('made-up requests add no series: labels stay within what the server serves', async () => {
  await round(0, 40);
  const first = await series();
  await round(40, 80);
  const second = await series();

  const added = [...second.lines].filter((l) => !first.lines.has(l));
  expect(added).toEqual([]);
  // Watch event series name served kinds only.
  const served = await servedKinds();
  const kinds = [...second.watchEvents].map((l) => {
    const group = /group="([^"]*)"/.exec(l)?.[1] ?? '?';
    return `${group}/${/kind="([^"]*)"/.exec(l)?.[1] ?? '?'}`;
  });
  expect(kinds.filter((k) => !served.has(k))).toEqual([]);
  // No label value carries a made-up part of a request.
  const leaked = [...second.lines, ...second.watchEvents].filter((l) =>
    /="[^"]*(r\d+|made\d|sub\d|garbage|name-\d|x\d|\bM\d|v\d{2,}|pods\d)/.test(l),
  );
  expect(leaked).toEqual([]);
  // The served ones are still counted: the configmaps route, with its verbs as the real server spells them.
  expect(
    [...second.lines].some(
      (l) =>
        l.includes('apiserver_request_total{') &&
        l.includes('resource="configmaps"') &&
        l.includes('verb="POST"'),
    ),
  ).toBe(true);
  // Only the counts grow (a few digits per series), never the text's shape.
  expect(second.bytes - first.bytes).toBeLessThan(16 * 1024);
}, 120_000);

it('/metrics is gzipped when the scrape accepts gzip (as promhttp does), plain otherwise', async () => {
  const url = `${host.url}/metrics`;
  const get = async (acceptEncoding?: string): Promise<{ encoding: string | undefined; body: Buffer }> => {
    const init = initFor(url, {}, 'admin');
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((v, k) => (headers[k] = v));
    if (acceptEncoding !== undefined) headers['accept-encoding'] = acceptEncoding;
    // undici's request leaves the body as sent (fetch would decode it).
    const res = await undiciRequest(url, { headers, dispatcher: init.dispatcher as unknown as Dispatcher });
    expect(res.statusCode).toBe(200);
    const encoding = res.headers['content-encoding'];
    return {
      encoding: typeof encoding === 'string' ? encoding : undefined,
      body: Buffer.from(await res.body.arrayBuffer()),
    };
  };
  const families = (text: string): string[] =>
    text.split('\n').filter((l) => l.startsWith('# TYPE apiserver_request_total'));

  const plain = await get();
  expect(plain.encoding).toBeUndefined();
  const zipped = await get('gzip, deflate');
  expect(zipped.encoding).toBe('gzip');
  const text = gunzipSync(zipped.body).toString('utf8');
  expect(families(text)).toEqual(families(plain.body.toString('utf8')));
  expect(text).toContain('apiserver_request_total{');
  // The compressed form is a small part of the text (Prometheus always asks for it).
  expect(zipped.body.length).toBeLessThan(plain.body.length / 4);
  // gzip refused by q=0 is plain.
  expect((await get('gzip;q=0, identity')).encoding).toBeUndefined();
});
