import { describe, expect, it } from 'vitest';
import type { AuditEvent } from '../api/audit';
import type { UserInfo } from '../api/authn';
import { AuditAnnotations } from '../machinery/admission/request-sinks';
import { flushAfterAnswer } from '../machinery/after-answer';
import { AuditLog, type AuditSink } from './log';
import type { AuditAttributes, AuditPolicy } from './policy';
import { AuditRecorder, type AuditRequest } from './recorder';

// The events of each kind of request, as JSON, byte for byte: the strings were written by the recorder that built
// every event after its answer (before the log made them when read, 0093), so a change in what the log keeps or
// when it builds shows here as a difference in bytes, key order included.

const policy: AuditPolicy = {
  rules: [
    {
      level: 'RequestResponse',
      omitManagedFields: true,
      resources: [{ group: '', resources: ['configmaps'] }],
    },
    { level: 'Request', verbs: ['create'] },
    { level: 'Metadata' },
  ],
  omitStages: [],
  omitManagedFields: false,
};

const admin: UserInfo = { username: 'admin', uid: 'u-1', groups: ['system:masters', 'system:authenticated'] };
const jane: UserInfo = { username: 'jane', groups: ['dev'], extra: { scopes: ['a', 'b'] } };

function attributes(over: Partial<AuditAttributes>): AuditAttributes {
  return {
    verb: 'get',
    resourceRequest: true,
    apiGroup: '',
    resource: 'configmaps',
    subresource: '',
    namespace: 'default',
    name: 'cm1',
    path: '/api/v1/namespaces/default/configmaps/cm1',
    ...over,
  };
}

function clock(): () => Date {
  let t = Date.parse('2026-12-06T18:00:00.123Z');
  return () => new Date((t += 7));
}

interface Sinks {
  log: AuditLog;
  written: AuditEvent[];
  sink: AuditSink;
}

function sinks(): Sinks {
  const written: AuditEvent[] = [];
  return { log: new AuditLog(), written, sink: { write: (e) => written.push(e) } };
}

function recorder(s: Sinks, request: AuditRequest, withSink: boolean): AuditRecorder {
  return new AuditRecorder(policy, s.log, withSink ? [s.sink] : [], 'audit.orch.io/v1', request, clock());
}

function request(user: UserInfo, over: Partial<AuditRequest>, attrs: Partial<AuditAttributes>): AuditRequest {
  return {
    auditId: 'a-1',
    received: new Date(Date.parse('2026-12-06T18:00:00.100Z')),
    method: 'GET',
    requestURI: '/api/v1/namespaces/default/configmaps/cm1',
    user,
    attributes: attributes(attrs),
    apiVersion: 'v1',
    ...over,
  };
}

const cases: { name: string; run: (s: Sinks, withSink: boolean) => void; want: string[] }[] = [
  {
    name: 'a resource GET with annotations and both bodies (managedFields left out)',
    run: (s, withSink) => {
      const r = recorder(
        s,
        request(admin, { userAgent: 'kubectl/v1', sourceIPs: ['10.0.0.1'] }, {}),
        withSink,
      );
      const notes = new AuditAnnotations();
      notes.add('authorization.orch.io/decision', 'allow');
      notes.add('authorization.orch.io/reason', '');
      notes.keep();
      r.received();
      r.completed(
        {
          code: 200,
          body: {
            kind: 'ConfigMap',
            metadata: { name: 'cm1', managedFields: [{ manager: 'x' }] },
            data: { a: 'b' },
          },
        },
        notes,
      );
    },
    want: [
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"RequestResponse","auditID":"a-1","stage":"RequestReceived","requestURI":"/api/v1/namespaces/default/configmaps/cm1","verb":"get","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"sourceIPs":["10.0.0.1"],"userAgent":"kubectl/v1","objectRef":{"resource":"configmaps","namespace":"default","name":"cm1","apiGroup":"","apiVersion":"v1"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.130000Z"}',
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"RequestResponse","auditID":"a-1","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/configmaps/cm1","verb":"get","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"sourceIPs":["10.0.0.1"],"userAgent":"kubectl/v1","objectRef":{"resource":"configmaps","namespace":"default","name":"cm1","apiGroup":"","apiVersion":"v1"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.137000Z","annotations":{"authorization.orch.io/decision":"allow","authorization.orch.io/reason":""},"responseStatus":{"metadata":{},"code":200},"responseObject":{"kind":"ConfigMap","metadata":{"name":"cm1"},"data":{"a":"b"}}}',
    ],
  },
  {
    name: 'a non-resource GET',
    run: (s, withSink) => {
      const r = recorder(
        s,
        request(
          admin,
          { requestURI: '/version', apiVersion: undefined },
          {
            resourceRequest: false,
            resource: '',
            namespace: '',
            name: '',
            path: '/version',
          },
        ),
        withSink,
      );
      r.received();
      r.completed({ code: 200 }, undefined);
    },
    want: [
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"Metadata","auditID":"a-1","stage":"RequestReceived","requestURI":"/version","verb":"get","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.130000Z"}',
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"Metadata","auditID":"a-1","stage":"ResponseComplete","requestURI":"/version","verb":"get","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.137000Z","responseStatus":{"metadata":{},"code":200}}',
    ],
  },
  {
    name: 'an impersonated create with its request body',
    run: (s, withSink) => {
      const r = recorder(
        s,
        request(
          admin,
          { method: 'POST', requestURI: '/api/v1/namespaces/default/secrets', impersonatedUser: jane },
          { verb: 'create', resource: 'secrets', name: '' },
        ),
        withSink,
      );
      r.received();
      r.completed({ code: 201, body: { kind: 'Secret' } }, undefined, {
        kind: 'Secret',
        metadata: { name: 's' },
      });
    },
    want: [
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"Request","auditID":"a-1","stage":"RequestReceived","requestURI":"/api/v1/namespaces/default/secrets","verb":"create","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"impersonatedUser":{"username":"jane","groups":["dev"],"extra":{"scopes":["a","b"]}},"objectRef":{"resource":"secrets","namespace":"default","apiGroup":"","apiVersion":"v1"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.130000Z"}',
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"Request","auditID":"a-1","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/secrets","verb":"create","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"impersonatedUser":{"username":"jane","groups":["dev"],"extra":{"scopes":["a","b"]}},"objectRef":{"resource":"secrets","namespace":"default","apiGroup":"","apiVersion":"v1"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.137000Z","responseStatus":{"metadata":{},"code":201},"requestObject":{"kind":"Secret","metadata":{"name":"s"}}}',
    ],
  },
  {
    name: 'a denied request with its Status',
    run: (s, withSink) => {
      const r = recorder(
        s,
        request(jane, {}, { resource: 'secrets', name: 's', subresource: 'status' }),
        withSink,
      );
      const notes = new AuditAnnotations();
      notes.add('authorization.orch.io/decision', 'forbid');
      notes.add('patch.webhook.admission.orch.io/round_0_index_0', '{}', 'Request');
      notes.keep();
      r.received();
      r.completed(
        {
          code: 403,
          status: { status: 'Failure', message: 'secrets "s" is forbidden', reason: 'Forbidden' },
        },
        notes,
      );
    },
    want: [
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"Metadata","auditID":"a-1","stage":"RequestReceived","requestURI":"/api/v1/namespaces/default/configmaps/cm1","verb":"get","user":{"username":"jane","groups":["dev"],"extra":{"scopes":["a","b"]}},"objectRef":{"resource":"secrets","namespace":"default","name":"s","apiGroup":"","apiVersion":"v1","subresource":"status"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.130000Z"}',
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"Metadata","auditID":"a-1","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/configmaps/cm1","verb":"get","user":{"username":"jane","groups":["dev"],"extra":{"scopes":["a","b"]}},"objectRef":{"resource":"secrets","namespace":"default","name":"s","apiGroup":"","apiVersion":"v1","subresource":"status"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.137000Z","annotations":{"authorization.orch.io/decision":"forbid"},"responseStatus":{"metadata":{},"code":403,"status":"Failure","message":"secrets \\"s\\" is forbidden","reason":"Forbidden"}}',
    ],
  },
  {
    name: 'a failed request and a watch',
    run: (s, withSink) => {
      const r = recorder(s, request(admin, { auditId: 'a-2' }, { name: 'missing' }), withSink);
      r.received();
      r.completed({ code: 404, status: { status: 'Failure', reason: 'NotFound' } }, undefined);
      const w = recorder(s, request(admin, { auditId: 'a-3' }, { verb: 'watch', name: '' }), withSink);
      w.received();
      w.started(200, undefined);
      w.completed({ code: 200 }, undefined);
    },
    want: [
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"RequestResponse","auditID":"a-2","stage":"RequestReceived","requestURI":"/api/v1/namespaces/default/configmaps/cm1","verb":"get","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"objectRef":{"resource":"configmaps","namespace":"default","name":"missing","apiGroup":"","apiVersion":"v1"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.130000Z"}',
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"RequestResponse","auditID":"a-2","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/configmaps/cm1","verb":"get","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"objectRef":{"resource":"configmaps","namespace":"default","name":"missing","apiGroup":"","apiVersion":"v1"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.137000Z","responseStatus":{"metadata":{},"code":404,"status":"Failure","reason":"NotFound"}}',
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"RequestResponse","auditID":"a-3","stage":"RequestReceived","requestURI":"/api/v1/namespaces/default/configmaps/cm1","verb":"watch","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"objectRef":{"resource":"configmaps","namespace":"default","apiGroup":"","apiVersion":"v1"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.130000Z"}',
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"RequestResponse","auditID":"a-3","stage":"ResponseStarted","requestURI":"/api/v1/namespaces/default/configmaps/cm1","verb":"watch","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"objectRef":{"resource":"configmaps","namespace":"default","apiGroup":"","apiVersion":"v1"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.137000Z","responseStatus":{"metadata":{},"code":200}}',
      '{"kind":"Event","apiVersion":"audit.orch.io/v1","level":"RequestResponse","auditID":"a-3","stage":"ResponseComplete","requestURI":"/api/v1/namespaces/default/configmaps/cm1","verb":"watch","user":{"username":"admin","uid":"u-1","groups":["system:masters","system:authenticated"]},"objectRef":{"resource":"configmaps","namespace":"default","apiGroup":"","apiVersion":"v1"},"requestReceivedTimestamp":"2026-12-06T18:00:00.100000Z","stageTimestamp":"2026-12-06T18:00:00.144000Z","responseStatus":{"metadata":{},"code":200}}',
    ],
  },
];

describe('AuditRecorder events', () => {
  for (const c of cases)
    it(`${c.name}: the same bytes, in order, listed, told to a subscriber and written to a sink`, () => {
      const listed = sinks();
      c.run(listed, false);
      expect(listed.log.list().map((e) => JSON.stringify(e))).toEqual(c.want);

      const told = sinks();
      const seen: AuditEvent[] = [];
      told.log.subscribe((e) => seen.push(e));
      c.run(told, true);
      flushAfterAnswer();
      expect(seen.map((e) => JSON.stringify(e))).toEqual(c.want);
      expect(told.written.map((e) => JSON.stringify(e))).toEqual(c.want);
      expect(told.log.list()).toEqual(seen);
    });
});
