import { describe, expect, it } from 'vitest';
import { featureGateSpecs, featureGatesByName } from './feature-gate-list';
import {
  checkFeatureGates,
  FeatureGateError,
  knownFeatureLines,
  parseFeatureGateText,
  resolveFeatureGates,
} from './feature-gates';

describe('the v1.27 gate list', () => {
  it.each([
    ['APIListChunking', 'BETA', true, false],
    ['WatchList', 'ALPHA', false, false],
    ['ValidatingAdmissionPolicy', 'ALPHA', false, false],
    ['AdmissionWebhookMatchConditions', 'ALPHA', false, false],
    ['APISelfSubjectReview', 'BETA', true, false],
    ['ServerSideFieldValidation', 'GA', true, true],
    ['LegacyServiceAccountTokenNoAutoGeneration', 'GA', true, true],
    ['ConsistentHTTPGetHandlers', 'GA', true, false],
    ['WindowsHostNetwork', 'ALPHA', true, false],
    ['CustomCPUCFSQuotaPeriod', 'ALPHA', false, false],
    ['AllAlpha', 'ALPHA', false, false],
    ['AllBeta', 'BETA', false, false],
  ])('%s is %s, default %s, locked %s', (name, stage, enabled, locked) => {
    expect(featureGatesByName.get(name)).toMatchObject({ stage, default: enabled, lockToDefault: locked });
  });

  it('has each name once, sorted, and only GA gates locked', () => {
    const names = featureGateSpecs.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    expect([...names].sort()).toEqual(names);
    expect(featureGateSpecs.filter((s) => s.lockToDefault).every((s) => s.stage === 'GA')).toBe(true);
    // Gates that arrived in v1.28 are not known to v1.27.
    expect(featureGatesByName.has('ConsistentListFromCache')).toBe(false);
  });

  it('lists for --help only the gates neither GA nor deprecated, in KnownFeatures form', () => {
    const lines = knownFeatureLines();
    expect(lines).toContain('WatchList=true|false (ALPHA - default=false)');
    expect(lines).toContain('AllBeta=true|false (BETA - default=false)');
    expect(lines.some((l) => l.startsWith('ServerSideApply='))).toBe(false);
  });
});

describe('parsing and checking settings', () => {
  it.each([
    ['Foo=true', 'unrecognized feature gate: Foo'],
    ['ServerSideApply=false', 'cannot set feature gate ServerSideApply to false, feature is locked to true'],
    ['WatchList', 'missing bool value for WatchList'],
    [
      'WatchList=yes',
      'invalid value of WatchList=yes, err: strconv.ParseBool: parsing "yes": invalid syntax',
    ],
  ])('%s is refused: %s', (text, message) => {
    expect(() => checkFeatureGates(parseFeatureGateText(text))).toThrow(new FeatureGateError(message));
  });

  it('accepts Go bools and spaces, and warns for GA gates', () => {
    const pairs = parseFeatureGateText(' WatchList = T ,,ServerSideApply=true');
    expect(pairs).toEqual([
      ['WatchList', true],
      ['ServerSideApply', true],
    ]);
    expect(checkFeatureGates(pairs)).toEqual([
      'Setting GA feature gate ServerSideApply=true. It will be removed in a future release.',
    ]);
  });
});

describe('AllAlpha and AllBeta', () => {
  it('set every alpha (beta) gate not named explicitly', () => {
    const gates = resolveFeatureGates({ AllAlpha: true, WatchList: false, AllBeta: false });
    expect(gates.ValidatingAdmissionPolicy).toBe(true);
    expect(gates.WatchList).toBe(false);
    expect(gates.APIListChunking).toBe(false);
    // GA gates keep their default.
    expect(gates.ServerSideApply).toBe(true);
  });

  it('leave defaults alone when unset', () => {
    const gates = resolveFeatureGates({});
    expect(gates.APIListChunking).toBe(true);
    expect(gates.WatchList).toBe(false);
    expect(Object.keys(gates)).toHaveLength(featureGateSpecs.length);
  });
});
