/**
 * The generic REST interface over real HTTP against the Node host:
 * status codes, Status bodies (reason, details, causes), headers, and the
 * metadata rules of create, update, patch, delete and deletecollection.
 * Table-driven: each case is a sequence of requests with expectations.
 */

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestHost, type TestHost, type TestResponse } from './support/host';

let host: TestHost;

interface Step {
  method: string;
  path: string;
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
  status: number;
  reason?: string;
  /** Extra assertions on the response. */
  check?: (r: TestResponse) => void;
}

interface Case {
  name: string;
  steps: Step[];
}

const cm = (name: string, data: Record<string, string> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name },
  data,
});
const deployment = (name: string, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name },
  spec: {
    replicas: 1,
    selector: { matchLabels: { app: name } },
    template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } },
    ...extra,
  },
});

function statusBody(r: TestResponse, code: number, reason: string): void {
  expect(r.body).toMatchObject({
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    reason,
    code,
  });
  expect(typeof r.body.message).toBe('string');
  expect(r.headers.get('content-type')).toBe('application/json');
}

const cases: Case[] = [
  {
    name: 'create answers 201 with server-set metadata',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: cm('c1', { a: '1' }),
        status: 201,
        check: (r) => {
          expect(r.body.kind).toBe('ConfigMap');
          expect(r.body.metadata.uid).toMatch(/^[0-9a-f-]{36}$/);
          expect(r.body.metadata.creationTimestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
          expect(r.body.metadata.resourceVersion).toMatch(/^\d+$/);
          expect(r.body.metadata.namespace).toBe('default');
          expect(r.body.metadata.generation).toBeUndefined();
        },
      },
      {
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps/c1',
        status: 200,
        check: (r) => expect(r.body.data).toEqual({ a: '1' }),
      },
    ],
  },
  {
    name: 'a second create of the same name is 409 AlreadyExists',
    steps: [
      { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: cm('dup'), status: 201 },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: cm('dup'),
        status: 409,
        reason: 'AlreadyExists',
        check: (r) => {
          expect(r.body.message).toBe('configmaps "dup" already exists');
          expect(r.body.details).toEqual({ name: 'dup', kind: 'configmaps' });
        },
      },
    ],
  },
  {
    name: 'unknown object is 404 NotFound naming it (group in details for named groups)',
    steps: [
      {
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps/nope',
        status: 404,
        reason: 'NotFound',
        check: (r) => expect(r.body.message).toBe('configmaps "nope" not found'),
      },
      {
        method: 'GET',
        path: '/apis/apps/v1/namespaces/default/deployments/nope',
        status: 404,
        reason: 'NotFound',
        check: (r) => {
          expect(r.body.message).toBe('deployments.apps "nope" not found');
          expect(r.body.details).toEqual({ name: 'nope', group: 'apps', kind: 'deployments' });
        },
      },
    ],
  },
  {
    name: 'unknown paths answer 404 with a Status body',
    steps: [
      { method: 'GET', path: '/api/v1/foos', status: 404, reason: 'NotFound' },
      { method: 'GET', path: '/apis/nothing.example/v1/things', status: 404, reason: 'NotFound' },
      { method: 'GET', path: '/apis/apps/v9/deployments', status: 404, reason: 'NotFound' },
      { method: 'GET', path: '/api/v1/namespaces/default/nodes', status: 404, reason: 'NotFound' },
      {
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps/x/bogus',
        status: 404,
        reason: 'NotFound',
      },
      { method: 'GET', path: '/not/an/api', status: 404, reason: 'NotFound' },
    ],
  },
  {
    name: 'a namespaced create into a missing namespace is 404 naming the namespace',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/missing/configmaps',
        body: cm('x'),
        status: 404,
        reason: 'NotFound',
        check: (r) => {
          expect(r.body.message).toBe('namespaces "missing" not found');
          expect(r.body.details).toEqual({ name: 'missing', kind: 'namespaces' });
        },
      },
    ],
  },
  {
    name: 'invalid names are 422 with one cause per problem',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: { name: 'Bad_Name', labels: { 'bad key!': 'v' } } },
        status: 422,
        reason: 'Invalid',
        check: (r) => {
          expect(r.body.details.kind).toBe('ConfigMap');
          expect(r.body.details.name).toBe('Bad_Name');
          const fields = r.body.details.causes.map((c: { field: string }) => c.field);
          expect(fields).toEqual(['metadata.name', 'metadata.labels']);
          expect(r.body.details.causes[0].reason).toBe('FieldValueInvalid');
          expect(r.body.message).toMatch(
            /^ConfigMap "Bad_Name" is invalid: \[metadata\.name: Invalid value: "Bad_Name": a lowercase RFC 1123 subdomain/,
          );
        },
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: {} },
        status: 422,
        reason: 'Invalid',
        check: (r) =>
          expect(r.body.details.causes).toEqual([
            {
              reason: 'FieldValueRequired',
              message: 'Required value: name or generateName is required',
              field: 'metadata.name',
            },
          ]),
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces',
        body: { metadata: { name: 'not.a.label' } },
        status: 422,
        reason: 'Invalid',
        check: (r) => expect(r.body.details.causes[0].message).toMatch(/RFC 1123 label/),
      },
    ],
  },
  {
    name: 'a type error is 400 at decode (as the real server), a missing required field 422 with causes',
    steps: [
      {
        method: 'POST',
        path: '/apis/apps/v1/namespaces/default/deployments',
        body: { metadata: { name: 'bad' }, spec: { replicas: 'three', template: {} } },
        status: 400,
        reason: 'BadRequest',
        check: (r) => {
          expect(r.body.message).toBe(
            'Deployment in version "v1" cannot be handled as a Deployment: json: cannot unmarshal string into Go struct field DeploymentSpec.spec.replicas of type int32',
          );
        },
      },
      {
        method: 'POST',
        path: '/apis/apps/v1/namespaces/default/deployments',
        body: { metadata: { name: 'bad' }, spec: { replicas: 3, template: {} } },
        status: 422,
        reason: 'Invalid',
        check: (r) => {
          const causes = r.body.details.causes as { field: string; reason: string }[];
          expect(causes).toContainEqual(
            expect.objectContaining({ field: 'spec.selector', reason: 'FieldValueRequired' }),
          );
          expect(r.body.details.group).toBe('apps');
        },
      },
    ],
  },
  {
    name: 'malformed bodies are 400, never 500',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: '{"metadata": {',
        status: 400,
        reason: 'BadRequest',
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: '[1,2]',
        status: 400,
        reason: 'BadRequest',
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: '"str"',
        status: 400,
        reason: 'BadRequest',
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: '{"metadata": "x"}',
        status: 400,
        reason: 'BadRequest',
      },
      {
        method: 'PUT',
        path: '/api/v1/namespaces/default/configmaps/c1',
        body: 'not json',
        status: 400,
        reason: 'BadRequest',
      },
      {
        method: 'PATCH',
        path: '/api/v1/namespaces/default/configmaps/c1',
        body: '{oops',
        contentType: 'application/merge-patch+json',
        status: 400,
        reason: 'BadRequest',
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { apiVersion: 'apps/v1', kind: 'ConfigMap', metadata: { name: 'x' } },
        status: 400,
        reason: 'BadRequest',
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { kind: 'Secret', metadata: { name: 'x' } },
        status: 400,
        reason: 'BadRequest',
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: { name: 'x', namespace: 'other' } },
        status: 400,
        reason: 'BadRequest',
      },
    ],
  },
  {
    name: 'YAML bodies are accepted',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: 'metadata:\n  name: from-yaml\ndata:\n  k: v\n',
        contentType: 'application/yaml',
        status: 201,
        check: (r) => expect(r.body.data).toEqual({ k: 'v' }),
      },
    ],
  },
  {
    name: 'methods a path does not allow are 405',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps/c1',
        body: cm('c1'),
        status: 405,
        reason: 'MethodNotAllowed',
      },
      {
        method: 'PUT',
        path: '/api/v1/namespaces/default/configmaps',
        body: cm('c1'),
        status: 405,
        reason: 'MethodNotAllowed',
      },
      { method: 'POST', path: '/api/v1/configmaps', body: cm('c1'), status: 405, reason: 'MethodNotAllowed' },
      { method: 'DELETE', path: '/api/v1/componentstatuses/x', status: 405, reason: 'MethodNotAllowed' },
      {
        method: 'GET',
        path: '/apis/authentication.orch.io/v1/tokenreviews',
        status: 405,
        reason: 'MethodNotAllowed',
      },
    ],
  },
  {
    name: 'unsupported media types are 415, unacceptable Accept is 406',
    steps: [
      {
        method: 'PATCH',
        path: '/api/v1/namespaces/default/configmaps/c1',
        body: '{}',
        contentType: 'text/plain',
        status: 415,
        reason: 'UnsupportedMediaType',
        check: (r) =>
          expect(r.body.message).toMatch(
            /^the body of the request was in an unknown format - accepted media types include: application\/json-patch\+json, application\/merge-patch\+json/,
          ),
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: '<x/>',
        contentType: 'application/xml',
        status: 415,
        reason: 'UnsupportedMediaType',
      },
      {
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps',
        headers: { accept: 'application/xml' },
        status: 406,
        reason: 'NotAcceptable',
      },
      {
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps',
        headers: { accept: 'application/xml, application/json' },
        status: 200,
      },
    ],
  },
  {
    name: 'optimistic concurrency: a stale resourceVersion is 409 Conflict, none is unconditional',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: cm('occ', { v: '1' }),
        status: 201,
      },
      {
        method: 'PUT',
        path: '/api/v1/namespaces/default/configmaps/occ',
        body: { ...cm('occ', { v: '2' }) },
        status: 200,
        check: (r) => expect(r.body.data.v).toBe('2'),
      },
      {
        method: 'PUT',
        path: '/api/v1/namespaces/default/configmaps/occ',
        body: { ...cm('occ', { v: '3' }), metadata: { name: 'occ', resourceVersion: '1' } },
        status: 409,
        reason: 'Conflict',
        check: (r) => {
          expect(r.body.message).toBe(
            'Operation cannot be fulfilled on configmaps "occ": the object has been modified; please apply your changes to the latest version and try again',
          );
          expect(r.body.details).toEqual({ name: 'occ', kind: 'configmaps' });
        },
      },
      {
        method: 'PATCH',
        path: '/api/v1/namespaces/default/configmaps/occ',
        body: { metadata: { resourceVersion: '1' }, data: { v: '4' } },
        contentType: 'application/merge-patch+json',
        status: 409,
        reason: 'Conflict',
      },
      {
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps/occ',
        status: 200,
        check: (r) => expect(r.body.data.v).toBe('2'),
      },
    ],
  },
  {
    name: 'update keeps uid and creationTimestamp; a no-op update does not bump resourceVersion',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: cm('noop', { a: '1' }),
        status: 201,
      },
      {
        method: 'PUT',
        path: '/api/v1/namespaces/default/configmaps/noop',
        body: {
          ...cm('noop', { a: '1' }),
          metadata: { name: 'noop', creationTimestamp: '2000-01-01T00:00:00Z' },
        },
        status: 200,
        check: (r) => expect(r.body.metadata.creationTimestamp).not.toBe('2000-01-01T00:00:00Z'),
      },
      {
        method: 'PUT',
        path: '/api/v1/namespaces/default/configmaps/noop',
        body: {
          ...cm('noop', { a: '1' }),
          metadata: { name: 'noop', uid: '00000000-0000-0000-0000-000000000000' },
        },
        status: 422,
        reason: 'Invalid',
        check: (r) =>
          expect(r.body.details.causes[0]).toMatchObject({
            field: 'metadata.uid',
            message: expect.stringContaining('field is immutable'),
          }),
      },
      {
        method: 'PUT',
        path: '/api/v1/namespaces/default/configmaps/other-name',
        body: cm('noop', { a: '1' }),
        status: 400,
        reason: 'BadRequest',
        check: (r) =>
          expect(r.body.message).toBe(
            'the name of the object (noop) does not match the name on the URL (other-name)',
          ),
      },
    ],
  },
  {
    name: 'PUT creates kinds that allow it (Service, Lease) and is 404 for others (Deployment)',
    steps: [
      {
        method: 'PUT',
        path: '/api/v1/namespaces/default/services/put-svc',
        body: { metadata: { name: 'put-svc' }, spec: { ports: [{ port: 80 }] } },
        status: 201,
      },
      {
        method: 'PUT',
        path: '/apis/coordination.orch.io/v1/namespaces/default/leases/put-lease',
        body: { metadata: { name: 'put-lease' }, spec: { holderIdentity: 'me' } },
        status: 201,
      },
      {
        method: 'PUT',
        path: '/apis/coordination.orch.io/v1/namespaces/default/leases/put-lease',
        body: { metadata: { name: 'put-lease' }, spec: { holderIdentity: 'you' } },
        status: 200,
      },
      {
        method: 'PUT',
        path: '/apis/apps/v1/namespaces/default/deployments/put-dep',
        body: deployment('put-dep'),
        status: 404,
        reason: 'NotFound',
      },
    ],
  },
  {
    name: 'generateName appends a random 5-character suffix',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: { generateName: 'gen-' } },
        status: 201,
        check: (r) => {
          expect(r.body.metadata.name).toMatch(/^gen-[bcdfghjklmnpqrstvwxz2456789]{5}$/);
          expect(r.body.metadata.generateName).toBe('gen-');
        },
      },
    ],
  },
  {
    name: 'merge patch (RFC 7386) and JSON patch (RFC 6902)',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: cm('p', { a: '1', b: '2' }),
        status: 201,
      },
      {
        method: 'PATCH',
        path: '/api/v1/namespaces/default/configmaps/p',
        body: { data: { a: null, c: '3' } },
        contentType: 'application/merge-patch+json',
        status: 200,
        check: (r) => expect(r.body.data).toEqual({ b: '2', c: '3' }),
      },
      {
        method: 'PATCH',
        path: '/api/v1/namespaces/default/configmaps/p',
        body: [
          { op: 'add', path: '/data/d', value: '4' },
          { op: 'remove', path: '/data/b' },
          { op: 'test', path: '/data/c', value: '3' },
        ],
        contentType: 'application/json-patch+json',
        status: 200,
        check: (r) => expect(r.body.data).toEqual({ c: '3', d: '4' }),
      },
      {
        method: 'PATCH',
        path: '/api/v1/namespaces/default/configmaps/p',
        body: [{ op: 'test', path: '/data/c', value: 'nope' }],
        contentType: 'application/json-patch+json',
        status: 422,
        reason: 'Invalid',
      },
      {
        method: 'PATCH',
        path: '/api/v1/namespaces/default/configmaps/p',
        body: [{ op: 'frobnicate', path: '/data' }],
        contentType: 'application/json-patch+json',
        status: 400,
        reason: 'BadRequest',
      },
      {
        method: 'PATCH',
        path: '/api/v1/namespaces/default/configmaps/missing',
        body: { data: {} },
        contentType: 'application/merge-patch+json',
        status: 404,
        reason: 'NotFound',
      },
    ],
  },
  {
    name: 'status subresource: the main resource ignores status, /status changes only status',
    steps: [
      {
        method: 'POST',
        path: '/apis/apps/v1/namespaces/default/deployments',
        body: { ...deployment('st'), status: { replicas: 9 } },
        status: 201,
        // The client's status is replaced by the Go zero status, as v1.27 stores it.
        check: (r) => expect(r.body.status).toEqual({}),
      },
      // The Deployment controller writes status meanwhile: the checks look only at what the requests sent.
      {
        method: 'PATCH',
        path: '/apis/apps/v1/namespaces/default/deployments/st',
        body: { status: { replicas: 5 } },
        contentType: 'application/merge-patch+json',
        status: 200,
        check: (r) => expect(r.body.status.replicas).not.toBe(5),
      },
      {
        method: 'PATCH',
        path: '/apis/apps/v1/namespaces/default/deployments/st/status',
        body: { spec: { replicas: 7 }, metadata: { labels: { sneaky: 'yes' } }, status: { replicas: 5 } },
        contentType: 'application/merge-patch+json',
        status: 200,
        check: (r) => {
          expect(r.body.status.replicas).toBe(5);
          expect(r.body.spec.replicas).toBe(1);
          expect(r.body.metadata.labels).toBeUndefined();
        },
      },
      {
        method: 'GET',
        path: '/apis/apps/v1/namespaces/default/deployments/st/status',
        status: 200,
        check: (r) => {
          expect(r.body.kind).toBe('Deployment');
          expect(r.body.spec.replicas).toBe(1);
        },
      },
    ],
  },
  {
    name: 'generation starts at 1 and increments on spec changes only',
    steps: [
      {
        method: 'POST',
        path: '/apis/apps/v1/namespaces/default/deployments',
        body: deployment('gen'),
        status: 201,
        check: (r) => expect(r.body.metadata.generation).toBe(1),
      },
      {
        method: 'PATCH',
        path: '/apis/apps/v1/namespaces/default/deployments/gen',
        body: { metadata: { labels: { a: 'b' } } },
        contentType: 'application/merge-patch+json',
        status: 200,
        check: (r) => expect(r.body.metadata.generation).toBe(1),
      },
      {
        method: 'PATCH',
        path: '/apis/apps/v1/namespaces/default/deployments/gen',
        body: { spec: { replicas: 3 } },
        contentType: 'application/merge-patch+json',
        status: 200,
        check: (r) => expect(r.body.metadata.generation).toBe(2),
      },
      {
        method: 'PATCH',
        path: '/apis/apps/v1/namespaces/default/deployments/gen/status',
        body: { status: { replicas: 3 } },
        contentType: 'application/merge-patch+json',
        status: 200,
        check: (r) => expect(r.body.metadata.generation).toBe(2),
      },
    ],
  },
  {
    name: 'scale subresource reads and writes spec.replicas',
    steps: [
      {
        method: 'POST',
        path: '/apis/apps/v1/namespaces/default/deployments',
        body: deployment('sc'),
        status: 201,
      },
      {
        method: 'GET',
        path: '/apis/apps/v1/namespaces/default/deployments/sc/scale',
        status: 200,
        check: (r) =>
          expect(r.body).toMatchObject({
            kind: 'Scale',
            apiVersion: 'autoscaling/v1',
            spec: { replicas: 1 },
            status: { selector: 'app=sc' },
          }),
      },
      {
        method: 'PATCH',
        path: '/apis/apps/v1/namespaces/default/deployments/sc/scale',
        body: { spec: { replicas: 4 } },
        contentType: 'application/merge-patch+json',
        status: 200,
        check: (r) => expect(r.body.spec.replicas).toBe(4),
      },
      {
        method: 'GET',
        path: '/apis/apps/v1/namespaces/default/deployments/sc',
        status: 200,
        check: (r) => expect(r.body.spec.replicas).toBe(4),
      },
    ],
  },
  {
    name: 'delete answers a Success Status (or the object for kinds that return it)',
    steps: [
      { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: cm('del'), status: 201 },
      {
        method: 'DELETE',
        path: '/api/v1/namespaces/default/configmaps/del',
        status: 200,
        check: (r) =>
          expect(r.body).toMatchObject({
            kind: 'Status',
            apiVersion: 'v1',
            status: 'Success',
            details: { name: 'del', kind: 'configmaps' },
          }),
      },
      { method: 'GET', path: '/api/v1/namespaces/default/configmaps/del', status: 404, reason: 'NotFound' },
      {
        method: 'DELETE',
        path: '/api/v1/namespaces/default/configmaps/del',
        status: 404,
        reason: 'NotFound',
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/serviceaccounts',
        body: { metadata: { name: 'sa-del' } },
        status: 201,
      },
      {
        method: 'DELETE',
        path: '/api/v1/namespaces/default/serviceaccounts/sa-del',
        status: 200,
        check: (r) => expect(r.body.kind).toBe('ServiceAccount'),
      },
    ],
  },
  {
    name: 'delete with preconditions',
    steps: [
      { method: 'POST', path: '/api/v1/namespaces/default/configmaps', body: cm('pre'), status: 201 },
      {
        method: 'DELETE',
        path: '/api/v1/namespaces/default/configmaps/pre',
        body: { preconditions: { uid: 'wrong' } },
        status: 409,
        reason: 'Conflict',
      },
      {
        method: 'DELETE',
        path: '/api/v1/namespaces/default/configmaps/pre',
        body: { preconditions: { resourceVersion: '1' } },
        status: 409,
        reason: 'Conflict',
      },
      {
        method: 'DELETE',
        path: '/api/v1/namespaces/default/configmaps/pre',
        body: { kind: 'DeleteOptions', apiVersion: 'v1', propagationPolicy: 'Background' },
        status: 200,
      },
    ],
  },
  {
    name: 'deletecollection deletes what the selector matches and answers with the list',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: { name: 'dc1', labels: { batch: 'x' } } },
        status: 201,
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: { name: 'dc2', labels: { batch: 'x' } } },
        status: 201,
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: { name: 'dc3', labels: { batch: 'y' } } },
        status: 201,
      },
      {
        method: 'DELETE',
        path: '/api/v1/namespaces/default/configmaps?labelSelector=batch%3Dx',
        status: 200,
        check: (r) => {
          expect(r.body.kind).toBe('ConfigMapList');
          expect(r.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
            'dc1',
            'dc2',
          ]);
        },
      },
      {
        method: 'GET',
        path: '/api/v1/namespaces/default/configmaps?labelSelector=batch',
        status: 200,
        check: (r) =>
          expect(r.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual(['dc3']),
      },
    ],
  },
  {
    name: 'lists carry kind, apiVersion and resourceVersion; items omit their type; all-namespaces listing',
    steps: [
      { method: 'POST', path: '/api/v1/namespaces', body: { metadata: { name: 'ns-list' } }, status: 201 },
      { method: 'POST', path: '/api/v1/namespaces/ns-list/configmaps', body: cm('in-other-ns'), status: 201 },
      {
        method: 'GET',
        path: '/api/v1/configmaps',
        status: 200,
        check: (r) => {
          expect(r.body.kind).toBe('ConfigMapList');
          expect(r.body.apiVersion).toBe('v1');
          expect(r.body.metadata.resourceVersion).toMatch(/^\d+$/);
          const nss = new Set(
            r.body.items.map((i: { metadata: { namespace: string } }) => i.metadata.namespace),
          );
          // Every namespace also holds the published root CA ConfigMap.
          expect([...nss]).toEqual(expect.arrayContaining(['default', 'ns-list']));
          expect(r.body.items[0].kind).toBeUndefined();
        },
      },
    ],
  },
  {
    name: 'the initial namespaces exist',
    steps: [
      {
        method: 'GET',
        path: '/api/v1/namespaces',
        status: 200,
        check: (r) => {
          const names = r.body.items.map((i: { metadata: { name: string } }) => i.metadata.name);
          expect(names).toEqual(expect.arrayContaining(['default', 'orch-system', 'orch-public']));
          for (const ns of r.body.items) expect(ns.status.phase).toBe('Active');
        },
      },
      { method: 'DELETE', path: '/api/v1/namespaces/default', status: 403, reason: 'Forbidden' },
    ],
  },
  {
    name: 'Warning headers for unknown fields (fieldValidation Warn by default), 400 under Strict',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps',
        body: { metadata: { name: 'warn' }, bogus: 1 },
        status: 201,
        check: (r) => {
          expect(r.headers.get('warning')).toBe('299 - "unknown field \\"bogus\\""');
          expect(r.body.bogus).toBeUndefined();
        },
      },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps?fieldValidation=Strict',
        body: { metadata: { name: 'strict' }, bogus: 1 },
        status: 400,
        reason: 'BadRequest',
      },
    ],
  },
  {
    name: 'dryRun=All writes nothing',
    steps: [
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps?dryRun=All',
        body: cm('dry'),
        status: 201,
        check: (r) => expect(r.body.metadata.uid).toBeDefined(),
      },
      { method: 'GET', path: '/api/v1/namespaces/default/configmaps/dry', status: 404, reason: 'NotFound' },
      {
        method: 'POST',
        path: '/api/v1/namespaces/default/configmaps?dryRun=Nope',
        body: cm('dry'),
        status: 400,
        reason: 'BadRequest',
      },
    ],
  },
];

// The whole table runs against both storage backends the Node host offers.
describe.each(['memory', 'dexie'] as const)('generic REST over HTTP (%s store)', (storage) => {
  beforeAll(async () => {
    host = await startTestHost({ storage });
  });
  afterAll(async () => {
    await host.close();
  });
  for (const c of cases) {
    it(c.name, async () => {
      for (const [i, step] of c.steps.entries()) {
        const r = await host.request(step.method, step.path, {
          body: step.body,
          contentType: step.contentType,
          headers: step.headers,
        });
        expect(r.status, `step ${i}: ${step.method} ${step.path}: ${r.text}`).toBe(step.status);
        if (step.reason !== undefined) statusBody(r, step.status, step.reason);
        step.check?.(r);
      }
    });
  }
});

describe('discovery, version and health', () => {
  beforeAll(async () => {
    host = await startTestHost();
  });
  afterAll(async () => {
    await host.close();
  });
  it('/api, /apis, resource lists and aggregated discovery', async () => {
    const api = await host.request('GET', '/api');
    expect(api.body).toMatchObject({ kind: 'APIVersions', versions: ['v1'] });
    const apis = await host.request('GET', '/apis');
    expect(apis.body.kind).toBe('APIGroupList');
    const names = apis.body.groups.map((g: { name: string }) => g.name);
    for (const g of [
      'apps',
      'batch',
      'autoscaling',
      'policy',
      'rbac.authorization.orch.io',
      'apiextensions.orch.io',
      'flowcontrol.apiserver.orch.io',
      'coordination.orch.io',
    ])
      expect(names).toContain(g);
    expect(names.some((n: string) => n.includes('k8s.io'))).toBe(false);
    const autoscaling = apis.body.groups.find((g: { name: string }) => g.name === 'autoscaling');
    expect(autoscaling.preferredVersion.version).toBe('v2');
    const apps = await host.request('GET', '/apis/apps/v1');
    const dep = apps.body.resources.find((r: { name: string }) => r.name === 'deployments');
    expect(dep).toMatchObject({
      singularName: 'deployment',
      namespaced: true,
      kind: 'Deployment',
      shortNames: ['deploy'],
      categories: ['all'],
    });
    expect(dep.verbs).toEqual([
      'create',
      'delete',
      'deletecollection',
      'get',
      'list',
      'patch',
      'update',
      'watch',
    ]);
    expect(apps.body.resources.find((r: { name: string }) => r.name === 'deployments/scale')).toMatchObject({
      group: 'autoscaling',
      version: 'v1',
      kind: 'Scale',
    });
    const agg = await host.request('GET', '/apis', {
      headers: {
        accept: 'application/json;g=apidiscovery.orch.io;v=v2beta1;as=APIGroupDiscoveryList,application/json',
      },
    });
    expect(agg.body.kind).toBe('APIGroupDiscoveryList');
    expect(agg.headers.get('content-type')).toContain('as=APIGroupDiscoveryList');
    const group = await host.request('GET', '/apis/apps');
    expect(group.body).toMatchObject({ kind: 'APIGroup', name: 'apps' });
  });

  it('alpha and non-default beta versions are off by default', async () => {
    const apis = await host.request('GET', '/apis');
    const versions: string[] = apis.body.groups.flatMap((g: { versions: { groupVersion: string }[] }) =>
      g.versions.map((v) => v.groupVersion),
    );
    expect(versions.filter((v) => /alpha/.test(v))).toEqual([]);
    expect(versions.filter((v) => /beta/.test(v)).sort()).toEqual([
      'flowcontrol.apiserver.orch.io/v1beta2',
      'flowcontrol.apiserver.orch.io/v1beta3',
    ]);
  });

  it('/version reports v1.27 and the health endpoints answer ok', async () => {
    const v = await host.request('GET', '/version');
    expect(v.body.gitVersion).toMatch(/^v1\.27\./);
    for (const p of ['/healthz', '/livez', '/readyz']) {
      const r = await host.request('GET', p);
      expect(r.status).toBe(200);
      expect(r.text).toBe('ok');
    }
    const verbose = await host.request('GET', '/readyz?verbose&exclude=log');
    expect(verbose.text).toContain('[+]log excluded: ok');
    expect(verbose.text.trim().endsWith('readyz check passed')).toBe(true);
    const one = await host.request('GET', '/livez/ping');
    expect(one.text).toBe('ok');
  });
});
