// Field validation findings in the real server's order and words, for the
// bodies of the real server's own field-validation integration tests: a
// typed JSON body interleaves repeats and unknown fields in document order;
// YAML bodies and patches list the document's problems first, then the
// unknown fields of the result sorted.
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../api/meta';
import { type StatusError } from '../machinery/errors';
import { builtInDefinitions } from '../registry/builtins';
import type { ResourceType } from '../registry/resource-type';
import { decodeObjectBody } from './body';
import { enforceFieldValidation, strictMessages, undecodable, warningItems } from './field-validation';
import { decodePatch } from './patch-decode';
import { yamlLibrary } from '../machinery/decode/yaml-library';

// The YAML library is loaded on first use; these call its synchronous users directly.
await yamlLibrary.load();

const deployments = {
  group: 'apps',
  version: 'v1',
  kind: 'Deployment',
  definition: 'api.apps.v1.Deployment',
  custom: false,
} as ResourceType;

const invalidJson = `{
  "apiVersion": "apps/v1", "kind": "Deployment",
  "metadata": { "name": "dupename", "name": "d", "labels": {"app": "nginx"}, "unknownMeta": "metaVal" },
  "spec": {
    "unknown1": "val1", "unknownDupe": "valDupe", "unknownDupe": "valDupe2", "paused": true, "paused": false,
    "selector": { "matchLabels": { "app": "nginx" } },
    "template": { "metadata": { "labels": { "app": "nginx" } },
      "spec": { "containers": [{ "name": "nginx", "image": "nginx:latest", "unknownNested": "val1", "imagePullPolicy": "Always", "imagePullPolicy": "Never" }] } }
  }
}`;

const invalidYaml = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: dupename
  name: d
  unknownMeta: metaVal
  labels:
    app: nginx
spec:
  unknown1: val1
  unknownDupe: valDupe
  unknownDupe: valDupe2
  paused: true
  paused: false
  selector:
    matchLabels:
      app: nginx
  template:
    metadata:
      labels:
        app: nginx
    spec:
      containers:
      - name: nginx
        image: nginx:latest
        unknownNested: val1
        imagePullPolicy: Always
        imagePullPolicy: Never`;

function bodyMessages(text: string, format: 'json' | 'yaml'): string[] {
  const decoded = decodeObjectBody(text, format, { kind: 'Deployment', typed: true });
  return strictMessages(builtInDefinitions, deployments, decoded.value as KubeObject, decoded.findings);
}

describe('POST and PUT bodies', () => {
  it('interleaves repeats and unknown fields of a JSON body in document order', () => {
    expect(bodyMessages(invalidJson, 'json')).toEqual([
      'duplicate field "metadata.name"',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
      'duplicate field "spec.paused"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    ]);
  });

  it('puts the YAML decoder error first and the unknown fields after, sorted', () => {
    const messages = bodyMessages(invalidYaml, 'yaml');
    expect(messages).toEqual([
      'yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 12: key "unknownDupe" already set in map\n  line 14: key "paused" already set in map\n  line 28: key "imagePullPolicy" already set in map',
      'unknown field "metadata.unknownMeta"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ]);
    expect(warningItems(messages).slice(0, 4)).toEqual([
      'line 5: key "name" already set in map',
      'line 12: key "unknownDupe" already set in map',
      'line 14: key "paused" already set in map',
      'line 28: key "imagePullPolicy" already set in map',
    ]);
  });

  it('prunes unknown fields in every mode and words the Strict error as the real server', async () => {
    const decoded = decodeObjectBody(invalidJson, 'json', { kind: 'Deployment', typed: true });
    const obj = decoded.value as KubeObject;
    let caught: unknown;
    try {
      await enforceFieldValidation(builtInDefinitions, deployments, obj, 'Strict', [], decoded.findings, {
        strictError: undecodable(deployments),
      });
    } catch (e) {
      caught = e;
    }
    expect((caught as StatusError).code).toBe(400);
    expect((caught as StatusError).message).toBe(
      'Deployment in version "v1" cannot be handled as a Deployment: strict decoding error: duplicate field "metadata.name", unknown field "metadata.unknownMeta", unknown field "spec.unknown1", unknown field "spec.unknownDupe", duplicate field "spec.paused", unknown field "spec.template.spec.containers[0].unknownNested", duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
    );
    const warnings: string[] = [];
    const again = decodeObjectBody(invalidJson, 'json', { kind: 'Deployment', typed: true });
    await enforceFieldValidation(
      builtInDefinitions,
      deployments,
      again.value as KubeObject,
      'Ignore',
      warnings,
      again.findings,
    );
    expect(warnings).toEqual([]);
    expect((again.value as { spec: Record<string, unknown> }).spec.unknown1).toBeUndefined();
  });

  it('answers an unreadable body as the real server does', () => {
    expect(() => decodeObjectBody('{"a":', 'json', { kind: 'Deployment' })).toThrow(
      'the object provided is unrecognized (must be of type Deployment): couldn\'t get version/kind; json parse error: unexpected end of JSON input ({"a":)',
    );
    expect(() =>
      decodeObjectBody('apiVersion: v1\nkind: Pod\nmore: text here', 'json', { kind: 'Pod' }),
    ).toThrow(
      "json parse error: invalid character 'a' looking for beginning of value (61706956657273696f6e3a2076310a6b696e643a20506f640a6d6f72653a ...)",
    );
  });
});

describe('patches', () => {
  const patched = (extra: Record<string, unknown>): KubeObject => ({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'd' },
    spec: { template: { spec: { containers: [{ name: 'nginx', unknownNested: 'v' }] } }, ...extra },
  });

  it('lists the patch document repeats first, then the unknown fields of the result sorted', () => {
    const merge =
      '{"spec":{"unknown1":"val1","unknownDupe":"a","unknownDupe":"b","paused":true,"paused":false,"template":{"spec":{"containers":[{"name":"nginx","imagePullPolicy":"Always","imagePullPolicy":"Never"}]}}}}';
    const { findings } = decodePatch(merge, 'merge', 'Warn');
    expect(
      strictMessages(
        builtInDefinitions,
        deployments,
        patched({ unknownDupe: 'b', unknown1: 'val1' }),
        findings,
      ),
    ).toEqual([
      'duplicate field "spec.unknownDupe"',
      'duplicate field "spec.paused"',
      'duplicate field "spec.template.spec.containers[0].imagePullPolicy"',
      'unknown field "spec.template.spec.containers[0].unknownNested"',
      'unknown field "spec.unknown1"',
      'unknown field "spec.unknownDupe"',
    ]);
  });

  it('checks the operations of a JSON patch', () => {
    const ops =
      '[{"op":"add","path":"/spec/unknown1","value":"val1","foo":"bar"},{"op":"add","path":"/spec/unknown2","path":"/spec/unknown3","value":"val1"}]';
    const { findings } = decodePatch(ops, 'json', 'Strict');
    expect(findings.leading).toEqual([
      'json patch unknown field "[0].foo"',
      'json patch duplicate field "[1].path"',
    ]);
    expect(decodePatch(ops, 'json', 'Ignore').findings.leading).toEqual([]);
  });

  it('words unreadable patches as each patch type does', () => {
    expect(() => decodePatch('{', 'merge', 'Warn')).toThrow(
      'error decoding patch: unexpected end of JSON input',
    );
    expect(() => decodePatch('{', 'merge', 'Ignore')).toThrow('Invalid JSON Patch');
    expect(() => decodePatch('{', 'strategic', 'Warn')).toThrow(/^unexpected end of JSON input$/);
    expect(() => decodePatch('{}', 'json', 'Warn')).toThrow(
      'error decoding patch: json: cannot unmarshal object into Go value of type []handlers.jsonPatchOp',
    );
    expect(() => decodePatch('[]', 'strategic', 'Warn')).toThrow(
      'json: cannot unmarshal array into Go value of type map[string]interface {}',
    );
  });
});
