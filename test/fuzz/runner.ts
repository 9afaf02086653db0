/**
 * The HTTP fuzzer's loop: seeds a namespace, objects of several kinds and a
 * CRD with CEL, then sends seeded random requests (see `requests`) to a
 * running host and checks after each one that
 *   - the answer is never a 5xx, except 504 for a resourceVersion the
 *     server has not reached and the classes the real server answers 5xx
 *     too (expected-5xx.ts), which are counted apart;
 *   - every error body is a Status (JSON, or protobuf when that was asked);
 *   - a request that failed, or a dry run, changed nothing (the storage
 *     revision is the same before and after, controllers idle);
 * and, every so often, that the server is still consistent: a list equals
 * the concatenation of its pages at the same resourceVersion.
 * Shared by the short run in the test suite and `npm run fuzz`.
 */

import fc from 'fast-check';
import { protobufCodec } from '../../src/http/protobuf/codec';
import { namingProfile, type ProfileName } from '../../src/machinery/naming';
import type { ChangeRecord } from '../../src/storage/types';
import { rawRequest, type RawResponse } from './raw-http';
import { fuzzGroup, fuzzNamespace, requestArb, seedCrd, seedObjects, type FuzzRequest } from './requests';
import { expectedServerError } from './expected-5xx';

/** What the fuzzer needs of a host. */
export interface FuzzHost {
  port: number;
  token: string;
  api: { controllersIdle(): Promise<void> };
  storage: { currentRevision(): Promise<number>; changesSince(after: number): Promise<ChangeRecord[]> };
}

export interface FuzzOptions {
  seed: number;
  n: number;
  profile?: ProfileName;
  /** Also send reads at a resourceVersion far ahead (each takes the server's 3 s wait). */
  futureVersions?: boolean;
  /** Run the consistency check every this many requests (default 50). */
  consistencyEvery?: number;
  /** Recreate what the requests deleted (the fuzz namespace, the CRD, objects) every this many requests (default 500). */
  reseedEvery?: number;
  /** Called after each request (progress). */
  /** After each request, with the report so far (a long run prints what it found before it ends). */
  onProgress?: (done: number, report: FuzzReport) => void;
}

export interface FuzzFailure {
  index: number;
  problem: string;
  request: string;
  status: number;
  body: string;
}

export interface FuzzReport {
  requests: number;
  byStatus: Record<string, number>;
  /** 4xx answers by Status reason. */
  byReason: Record<string, number>;
  /** Unexpected 5xx answers by message, with one request that produced each. */
  serverErrors: Record<string, { count: number; sample: string }>;
  /** 5xx answers the real server gives too (expected-5xx.ts), by class, with one request each. */
  expectedServerErrors: Record<string, { count: number; sample: string }>;
  failures: FuzzFailure[];
}

type Json = Record<string, unknown>;

/** Managers the fuzzer's requests write as (its User-Agent, its `fieldManager` values). */
function isFuzzManager(manager: string): boolean {
  return (
    manager.startsWith('orch-fuzz') ||
    manager.startsWith('fuzz') ||
    manager === '名前' ||
    /^a{100,}$/.test(manager)
  );
}

function describeRequest(r: FuzzRequest): string {
  const body =
    r.body === undefined
      ? ''
      : typeof r.body === 'string'
        ? ` ${r.body.length > 300 ? `${r.body.slice(0, 300)}...(${r.body.length})` : r.body}`
        : ` <${r.body.length} bytes>`;
  return `${r.method} ${r.path} [${Object.entries(r.headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('; ')}]${body}`;
}

export class Fuzzer {
  private readonly profile: ProfileName;
  private readonly codec;

  constructor(
    private readonly host: FuzzHost,
    profile: ProfileName = 'orch',
  ) {
    this.profile = profile;
    this.codec = protobufCodec(namingProfile(profile));
  }

  private send(
    method: string,
    path: string,
    body?: string | Uint8Array,
    headers: Record<string, string> = {},
  ) {
    const all: Record<string, string> = { authorization: `Bearer ${this.host.token}`, ...headers };
    if (body !== undefined && all['content-type'] === undefined) all['content-type'] = 'application/json';
    return rawRequest(this.host.port, method, path, { body, headers: all, timeoutMs: 30_000 });
  }

  /** Creates what the requests refer to: the namespaces, objects of each kind, the CRD (Established). */
  async seed(): Promise<void> {
    for (const { path, body } of seedObjects(this.profile))
      await this.send('POST', path, JSON.stringify(body));
    const crd = seedCrd(this.profile);
    const crdsPath = `/apis/${namingProfile(this.profile).suffixed('apiextensions')}/v1/customresourcedefinitions`;
    await this.send('POST', crdsPath, JSON.stringify(crd));
    for (let i = 0; i < 200; i++) {
      const r = await this.send('GET', `${crdsPath}/widgets.${fuzzGroup}`);
      const conditions = (((r.json as Json | undefined)?.status as Json | undefined)?.conditions ??
        []) as Json[];
      if (conditions.some((c) => c.type === 'Established' && c.status === 'True')) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    for (const name of ['a', 'b']) {
      await this.send(
        'POST',
        `/apis/${fuzzGroup}/v1/namespaces/${fuzzNamespace}/widgets`,
        JSON.stringify({
          apiVersion: `${fuzzGroup}/v1`,
          kind: 'Widget',
          metadata: { name },
          spec: { size: 1 },
        }),
      );
    }
  }

  /**
   * The changes since `before` that the request made: writes whose object
   * names a fuzz field manager, and deletions of what it addressed (its
   * resource and name: a pod `x` whose graceful deletion its node finishes
   * during a request for the CRD `x` is not that request's). Other changes are the
   * controllers' (a namespace finalized, a CRD established).
   */
  private async changesBy(request: FuzzRequest, before: number): Promise<ChangeRecord[]> {
    const changes = await this.host.storage.changesSince(before);
    return changes.filter((c) => {
      if (c.type === 'DELETED')
        return (
          request.target !== undefined &&
          c.key.endsWith(`/${request.target}`) &&
          addressesResourceOf(request.path, c.key)
        );
      const entries = (o: unknown) =>
        (((o as Json | undefined)?.metadata as Json | undefined)?.managedFields ?? []) as Json[];
      const old = entries(c.previous).map((e) => JSON.stringify(e));
      // An entry of a fuzz manager that is new or changed: the request wrote it.
      return entries(c.object).some(
        (e) => isFuzzManager(String(e.manager)) && !old.includes(JSON.stringify(e)),
      );
    });
  }

  /** The Status in an error answer (JSON or protobuf), or undefined when the body is no Status. */
  private statusOf(r: RawResponse): Json | undefined {
    const type = String(r.headers['content-type'] ?? '');
    if (type.startsWith('application/json')) {
      const body = r.json as Json | undefined;
      return body?.kind === 'Status' ? body : undefined;
    }
    if (type.startsWith(namingProfile(this.profile).protobufMediaType)) {
      try {
        const decoded = this.codec.decode(r.bytes) as Json;
        return decoded.kind === 'Status' ? decoded : undefined;
      } catch {
        return undefined;
      }
    }
    return undefined;
  }

  /** Lists equal their pages: the names of a full list at the first page's resourceVersion. */
  private async consistency(): Promise<string | undefined> {
    const collections = [
      `/api/v1/namespaces/${fuzzNamespace}/configmaps`,
      '/api/v1/configmaps',
      '/api/v1/namespaces',
      `/apis/${fuzzGroup}/v1/widgets`,
    ];
    for (const path of collections) {
      const names: string[] = [];
      let token = '';
      let rv = '';
      for (let page = 0; page < 1000; page++) {
        const r = await this.send(
          'GET',
          `${path}?limit=2${token === '' ? '' : `&continue=${encodeURIComponent(token)}`}`,
        );
        if (r.status === 404 && path.includes(fuzzGroup)) break; // the fuzzer may have deleted its CRD
        if (r.status !== 200) return `paging ${path}: ${r.status} ${r.text.slice(0, 200)}`;
        const list = r.json as Json;
        const meta = list.metadata as Json;
        if (page === 0) rv = String(meta.resourceVersion);
        for (const item of list.items as Json[]) {
          const m = item.metadata as Json;
          names.push(`${String(m.namespace ?? '')}/${String(m.name)}`);
        }
        token = String(meta.continue ?? '');
        if (token === '') break;
      }
      if (rv === '') continue;
      const full = await this.send('GET', `${path}?resourceVersion=${rv}&resourceVersionMatch=Exact`);
      if (full.status === 410) continue; // compacted meanwhile: nothing to compare
      if (full.status !== 200) return `list ${path} at ${rv}: ${full.status} ${full.text.slice(0, 200)}`;
      const all = ((full.json as Json).items as Json[]).map((item) => {
        const m = item.metadata as Json;
        return `${String(m.namespace ?? '')}/${String(m.name)}`;
      });
      if (JSON.stringify(all) !== JSON.stringify(names))
        return `list ${path} at ${rv} differs from its pages: ${JSON.stringify(all).slice(0, 300)} vs ${JSON.stringify(names).slice(0, 300)}`;
      if (new Set(names).size !== names.length) return `pages of ${path} repeat an item`;
    }
    return undefined;
  }

  async run(options: FuzzOptions): Promise<FuzzReport> {
    const report: FuzzReport = {
      requests: 0,
      byStatus: {},
      byReason: {},
      serverErrors: {},
      expectedServerErrors: {},
      failures: [],
    };
    const every = options.consistencyEvery ?? 50;
    const arb = requestArb({ profile: this.profile, futureVersions: options.futureVersions });
    const batch = 100;
    for (let start = 0; start < options.n; start += batch) {
      const requests = fc.sample(arb, {
        seed: options.seed + start,
        numRuns: Math.min(batch, options.n - start),
      });
      for (const [k, request] of requests.entries()) {
        const index = start + k;
        await this.one(index, request, report);
        // Once the fuzz namespace or CRD is gone every request is a 404: put the starting state back now and then.
        if ((index + 1) % (options.reseedEvery ?? 500) === 0) await this.seed();
        if ((index + 1) % every === 0) {
          const problem = await this.consistency();
          if (problem !== undefined)
            report.failures.push({ index, problem, request: describeRequest(request), status: 0, body: '' });
        }
        options.onProgress?.(index + 1, report);
      }
    }
    return report;
  }

  private async one(index: number, request: FuzzRequest, report: FuzzReport): Promise<void> {
    await this.host.api.controllersIdle();
    const before = await this.host.storage.currentRevision();
    const r = await this.send(request.method, request.path, request.body, request.headers);
    report.requests++;
    report.byStatus[String(r.status)] = (report.byStatus[String(r.status)] ?? 0) + 1;
    const fail = (problem: string) =>
      report.failures.push({
        index,
        problem,
        request: describeRequest(request),
        status: r.status,
        body: r.text.slice(0, 500),
      });
    if (r.status === 0) {
      fail('no answer within 30 s');
      return;
    }
    const status = request.method === 'HEAD' || r.status < 400 ? undefined : this.statusOf(r);
    if (r.status >= 400 && request.method !== 'HEAD' && status === undefined)
      fail('error body is not a Status');
    if (r.status >= 400 && r.status < 500) {
      const reason = request.method === 'HEAD' ? '(HEAD: no body)' : String(status?.reason ?? '(none)');
      report.byReason[reason] = (report.byReason[reason] ?? 0) + 1;
    }
    if (r.status >= 500) {
      const causes = ((status?.details as Json | undefined)?.causes ?? []) as Json[];
      const tooLargeRv = r.status === 504 && causes.some((c) => c.reason === 'ResourceVersionTooLarge');
      const message = String(status?.message ?? r.text.slice(0, 120));
      const expected = expectedServerError(r.status, message, describeRequest(request));
      if (expected !== undefined) {
        const seen = report.expectedServerErrors[expected.name];
        if (seen === undefined)
          report.expectedServerErrors[expected.name] = { count: 1, sample: describeRequest(request) };
        else seen.count++;
      } else if (!tooLargeRv) {
        const key = `${r.status} ${message}`;
        const seen = report.serverErrors[key];
        if (seen === undefined) report.serverErrors[key] = { count: 1, sample: describeRequest(request) };
        else seen.count++;
        fail('5xx');
      }
    }
    const dryRun = /[?&]dryRun=All(&|$)/.test(request.path);
    if (r.status >= 400 || (dryRun && r.status < 300)) {
      const changed = await this.changesBy(request, before);
      if (changed.length > 0)
        fail(
          `${r.status >= 400 ? 'a failed request' : 'a dry run'} changed state: ${changed.map((c) => `${c.type} ${c.key}@${c.revision}`).join(', ')}`,
        );
    }
  }
}

/** Whether the request path names the resource of the storage key `/<group>/<resource>/…` as a segment. */
function addressesResourceOf(path: string, key: string): boolean {
  const resource = key.split('/')[2] ?? '';
  return (path.split('?')[0] ?? '').split('/').includes(resource);
}
