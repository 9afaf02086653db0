import { describe, expect, it } from 'vitest';
import { StatusError } from '../../../../machinery/errors';
import { fieldErrorMessage } from '../../../../machinery/field-errors';
import { chooseContainer, isProxyableAddress, queryBool, queryInt64, splitSchemeNamePort } from './connect';
import { parseLogOptions, validateLogOptions } from './log';
import { agentLog, agentPortForward, agentStream } from './node-agent';
import { parsePorts } from './portforward';

const q = (s: string) => new URLSearchParams(s);

function failure(fn: () => unknown): { code: number; message: string } {
  try {
    fn();
  } catch (e) {
    if (e instanceof StatusError) return { code: e.code, message: e.status.message ?? '' };
    throw e;
  }
  throw new Error('expected a StatusError');
}

describe('query conversions (Go parameter codec)', () => {
  it.each([
    ['', false],
    ['stdin', true],
    ['stdin=', true],
    ['stdin=1', true],
    ['stdin=0', false],
    ['stdin=FALSE', false],
    ['stdin=yes', true],
  ])('bool %j → %s', (query, want) => expect(queryBool(q(query), 'stdin')).toBe(want));

  it.each([
    ['tailLines=12', 12],
    ['tailLines=-3', -3],
    ['tailLines=', undefined],
    ['', undefined],
  ])('int64 %j → %s', (query, want) => expect(queryInt64(q(query), 'tailLines')).toBe(want));

  it.each([
    ['tailLines=1.5', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
    [
      'tailLines=99999999999999999999',
      'strconv.ParseInt: parsing "99999999999999999999": value out of range',
    ],
  ])('int64 %j → 400 %s', (query, message) =>
    expect(failure(() => queryInt64(q(query), 'tailLines'))).toEqual({ code: 400, message }),
  );

  it('ports split on commas and must be 16-bit numbers', () => {
    expect(parsePorts(q('ports=80,443&ports=8080'))).toEqual([80, 443, 8080]);
    expect(failure(() => parsePorts(q('ports=70000'))).message).toBe(
      'cannot convert to []int32: strconv.ParseUint: parsing "70000": value out of range',
    );
  });
});

describe('PodLogOptions', () => {
  it.each([
    ['tailLines=-1', ['tailLines: Invalid value: -1: must be greater than or equal to 0']],
    ['limitBytes=0', ['limitBytes: Invalid value: 0: must be greater than 0']],
    ['sinceSeconds=-2', ['sinceSeconds: Invalid value: -2: must be greater than 0']],
    [
      'sinceSeconds=2&sinceTime=',
      [': Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified'],
    ],
    ['tailLines=0&limitBytes=1&sinceSeconds=1', []],
  ])('%s', (query, messages) => {
    expect(validateLogOptions(parseLogOptions(q(query))).map(fieldErrorMessage)).toEqual(messages);
  });

  it('sinceTime must be RFC 3339', () => {
    expect(parseLogOptions(q('sinceTime=2024-05-01T10:00:00Z')).sinceTime).toBe('2024-05-01T10:00:00Z');
    expect(failure(() => parseLogOptions(q('sinceTime=yesterday'))).message).toBe(
      'parsing time "yesterday" as "2006-01-02T15:04:05Z07:00": cannot parse "yesterday" as "2006"',
    );
  });
});

describe('containers', () => {
  const pod = {
    metadata: { name: 'p' },
    spec: {
      initContainers: [{ name: 'setup' }],
      containers: [{ name: 'a' }, { name: 'b' }],
      ephemeralContainers: [{ name: 'debug' }],
    },
  };
  it('names any container of the pod, or the only one', () => {
    expect(chooseContainer(pod, 'debug')).toBe('debug');
    expect(chooseContainer({ metadata: { name: 'q' }, spec: { containers: [{ name: 'only' }] } }, '')).toBe(
      'only',
    );
  });
  it.each([
    ['nope', 'container nope is not valid for pod p'],
    ['', 'a container name must be specified for pod p, choose one of: [setup a b debug]'],
  ])('%j → 400 %s', (requested, message) =>
    expect(failure(() => chooseContainer(pod, requested))).toEqual({ code: 400, message }),
  );
});

describe('proxy names and addresses', () => {
  it.each([
    ['web', { scheme: '', name: 'web', port: '' }],
    ['web:8080', { scheme: '', name: 'web', port: '8080' }],
    ['https:web:443', { scheme: 'https', name: 'web', port: '443' }],
    ['ftp:web:21', undefined],
    [':80', undefined],
    ['a:b:c:d', undefined],
  ])('%s', (id, want) => expect(splitSchemeNamePort(id)).toEqual(want));

  it.each([
    ['10.1.2.3', true],
    ['192.168.0.1', true],
    ['127.0.0.1', false],
    ['0.0.0.0', false],
    ['169.254.1.1', false],
    ['224.0.0.1', false],
    ['255.255.255.255', false],
    ['2001:db8::1', true],
    ['::1', false],
    ['fe80::1', false],
    ['::ffff:127.0.0.1', false],
    ['node-1.example', true],
  ])('%s proxyable: %s', (address, want) => expect(isProxyableAddress(address)).toBe(want));
});

describe('the node agent stand-in', () => {
  const withStatus = (status: object) => ({
    metadata: { name: 'p', namespace: 'ns' },
    status: { containerStatuses: [{ name: 'c', ...status }] },
  });
  it.each([
    [
      { state: { waiting: { reason: 'ContainerCreating' } } },
      false,
      'container "c" in pod "p" is waiting to start: ContainerCreating',
    ],
    [
      { state: { waiting: { reason: 'ErrImagePull' } } },
      false,
      `container "c" in pod "p" is waiting to start: image can't be pulled`,
    ],
    [
      { state: { waiting: { reason: 'ImagePullBackOff' } } },
      false,
      'container "c" in pod "p" is waiting to start: trying and failing to pull image',
    ],
    [{ state: { terminated: {} } }, false, 'container "c" in pod "p" is terminated'],
    [{ state: {} }, false, 'container "c" in pod "p" is waiting to start - no logs yet'],
    [{ state: { running: {} } }, true, 'previous terminated container "c" in pod "p" not found'],
  ])('log of %j (previous %s) → 400', (status, previous, message) =>
    expect(failure(() => agentLog(withStatus(status), 'c', previous))).toEqual({ code: 400, message }),
  );

  it('a running or finished container has an empty log', () => {
    expect(agentLog(withStatus({ state: { running: {} } }), 'c', false)).toEqual({
      status: 200,
      contentType: 'text/plain',
      body: '',
    });
    expect(agentLog(withStatus({ state: { terminated: { containerID: 'x://1' } } }), 'c', false).status).toBe(
      200,
    );
    expect(
      agentLog(withStatus({ lastState: { terminated: { containerID: 'x://1' } } }), 'c', true).status,
    ).toBe(200);
  });

  it('exec, attach and portforward never find anything running', () => {
    expect(failure(() => agentStream('c', { stdin: false, stdout: false, stderr: false })).message).toBe(
      'you must specify at least 1 of stdin, stdout, stderr',
    );
    expect(failure(() => agentStream('c', { stdin: true, stdout: false, stderr: false })).message).toBe(
      'container not found ("c")',
    );
    expect(failure(() => agentPortForward(withStatus({}))).message).toBe('pod not found ("p_ns")');
  });
});
