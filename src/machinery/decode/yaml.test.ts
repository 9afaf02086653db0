// Duplicate-aware YAML decoding, checked against the real server's strict
// YAML error for the body its own field-validation tests use.
import { describe, expect, it } from 'vitest';
import { decodeYaml, yamlDuplicatesError, YamlSyntaxError } from './yaml';
import { yamlLibrary } from './yaml-library';

// The YAML library is loaded on first use; these call its synchronous users directly.
await yamlLibrary.load();

const body = `apiVersion: apps/v1
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
  template:
    spec:
      containers:
      - name: nginx
        imagePullPolicy: Always
        imagePullPolicy: Never`;

describe('YAML duplicates', () => {
  it('words every repeated key by line, as the strict YAML decoder does', () => {
    const decoded = decodeYaml(body);
    expect(yamlDuplicatesError(decoded.duplicates)).toBe(
      'yaml: unmarshal errors:\n  line 5: key "name" already set in map\n  line 12: key "unknownDupe" already set in map\n  line 14: key "paused" already set in map\n  line 20: key "imagePullPolicy" already set in map',
    );
    expect(decoded.duplicates.map((d) => d.path)).toEqual([
      'metadata.name',
      'spec.unknownDupe',
      'spec.paused',
      'spec.template.spec.containers[0].imagePullPolicy',
    ]);
  });

  it('keeps the last value', () => {
    const value = decodeYaml(body).value as { metadata: { name: string }; spec: { paused: boolean } };
    expect(value.metadata.name).toBe('d');
    expect(value.spec.paused).toBe(false);
  });

  it('does not look inside a repeated key, and names non-string keys as Go prints them', () => {
    const decoded = decodeYaml('a:\n  x: 1\na:\n  y: 1\n  y: 2\n1: one\n1: uno\n');
    expect(decoded.duplicates.map((d) => d.message)).toEqual([
      'line 3: key "a" already set in map',
      'line 7: key 1 already set in map',
    ]);
  });

  it('reads the first document only', () => {
    expect(decodeYaml('a: 1\n---\nb: 2\n').value).toEqual({ a: 1 });
    expect(decodeYaml('').value).toBeNull();
  });

  it('reports syntax errors with their line', () => {
    expect(() => decodeYaml('a:\n  - x\n y: 1')).toThrow(YamlSyntaxError);
    try {
      decodeYaml('a: b: c');
    } catch (e) {
      expect((e as YamlSyntaxError).message).toMatch(/^yaml: line 1: /);
      expect((e as YamlSyntaxError).line).toBe(1);
    }
  });

  // go-yaml's parser knows only the anchors it has already read; its decoder refuses an anchor that holds itself.
  it.each([
    ['an anchor never set', '*x', "yaml: unknown anchor 'x' referenced"],
    ['an anchor set after its alias', 'a: *x\nb: &x 1', "yaml: unknown anchor 'x' referenced"],
    ['a sequence holding its own alias', '&a [*a]', "yaml: anchor 'a' value contains itself"],
    ['a map holding its own alias', 'a: &m {b: *m}', "yaml: anchor 'm' value contains itself"],
  ])('refuses %s as go-yaml does', (_name, text, message) => {
    expect(() => decodeYaml(text)).toThrow(YamlSyntaxError);
    expect(() => decodeYaml(text)).toThrow(message);
  });

  it('reads an alias to an anchor set before it', () => {
    expect(decodeYaml('a: &x 1\nb: *x').value).toEqual({ a: 1, b: 1 });
  });
});
