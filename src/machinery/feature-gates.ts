/**
 * `--feature-gates` as component-base's feature gate reads it: the text
 * `Name=bool,...` (Go's ParseBool values), refusals with the real messages
 * (`unrecognized feature gate: Foo`, `cannot set feature gate X to false,
 * feature is locked to true`), the warnings the real server logs for GA and
 * deprecated gates, and `AllAlpha`/`AllBeta`, which set every alpha (beta)
 * gate not named explicitly. The same checks guard the workshop settings.
 */

import { featureGateSpecs, featureGatesByName, type FeatureGateSpec } from './feature-gate-list';

/** A refused gate setting; the message is the real one. */
export class FeatureGateError extends Error {}

/** Go's strconv.ParseBool, or undefined. */
export function goParseBool(text: string): boolean | undefined {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  return undefined;
}

/** The featureGate.Set pass: `Name=bool` pairs in order, before any gate is checked. */
export function parseFeatureGateText(text: string): [string, boolean][] {
  const pairs: [string, boolean][] = [];
  for (const entry of text.split(',')) {
    if (entry === '') continue;
    const at = entry.indexOf('=');
    const name = (at < 0 ? entry : entry.slice(0, at)).trim();
    if (at < 0) throw new FeatureGateError(`missing bool value for ${name}`);
    const valueText = entry.slice(at + 1).trim();
    const value = goParseBool(valueText);
    if (value === undefined)
      throw new FeatureGateError(
        `invalid value of ${name}=${valueText}, err: strconv.ParseBool: parsing "${valueText}": invalid syntax`,
      );
    pairs.push([name, value]);
  }
  return pairs;
}

/**
 * The featureGate.SetFromMap checks: each name known and no locked gate
 * moved off its default. Returns the warnings the real server logs.
 */
export function checkFeatureGates(settings: Iterable<[string, boolean]>): string[] {
  const warnings: string[] = [];
  for (const [name, value] of settings) {
    const spec = featureGatesByName.get(name);
    if (spec === undefined) throw new FeatureGateError(`unrecognized feature gate: ${name}`);
    if (spec.lockToDefault && spec.default !== value)
      throw new FeatureGateError(
        `cannot set feature gate ${name} to ${String(value)}, feature is locked to ${String(spec.default)}`,
      );
    if (spec.stage === 'DEPRECATED')
      warnings.push(
        `Setting deprecated feature gate ${name}=${String(value)}. It will be removed in a future release.`,
      );
    else if (spec.stage === 'GA')
      warnings.push(
        `Setting GA feature gate ${name}=${String(value)}. It will be removed in a future release.`,
      );
  }
  return warnings;
}

/**
 * Every gate's effective value given the explicit settings: the default,
 * or the setting, or — for an alpha (beta) gate not set explicitly — the
 * value of `AllAlpha` (`AllBeta`) when that is set.
 */
export function resolveFeatureGates(explicit: Readonly<Record<string, boolean>>): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const spec of featureGateSpecs) {
    const own = explicit[spec.name];
    const all =
      spec.stage === 'ALPHA' ? explicit.AllAlpha : spec.stage === 'BETA' ? explicit.AllBeta : undefined;
    out[spec.name] =
      own ?? (spec.name === 'AllAlpha' || spec.name === 'AllBeta' ? undefined : all) ?? spec.default;
  }
  return out;
}

/** The `--feature-gates` usage lines: gates neither GA nor deprecated, as `KnownFeatures()` lists them. */
export function knownFeatureLines(): string[] {
  return featureGateSpecs
    .filter((s) => s.stage !== 'GA' && s.stage !== 'DEPRECATED')
    .map((s) => `${s.name}=true|false (${s.stage} - default=${String(s.default)})`);
}

export type { FeatureGateSpec };
export { featureGateSpecs, featureGatesByName };
