/**
 * `--feature-gates`: every occurrence in order, as component-base's feature
 * gate takes them, with its warnings for GA and deprecated gates.
 */

import {
  checkFeatureGates,
  FeatureGateError,
  knownFeatureLines,
  parseFeatureGateText,
} from '../../../machinery/feature-gates';
import type { NodeHostOptions } from '../host';
import { invalid, type FlagDecl, type RawFlags } from './flags';

export const featureGateFlags = {
  'feature-gates': {
    kind: 'mapStringBool',
    type: 'mapStringBool',
    section: 'generic',
    usage: `A set of key=value pairs that describe feature gates for alpha/experimental features. Options are:\n${knownFeatureLines().join('\n')}`,
  },
} as const satisfies Record<string, FlagDecl>;

type FeatureGateFlag = keyof typeof featureGateFlags;

/**
 * Each `--feature-gates` occurrence in order, as component-base's feature gate
 * takes them (see machinery/feature-gates.ts); warnings for GA and deprecated gates.
 */
export function parseFeatureGates(
  occurrences: readonly string[],
  warn: (message: string) => void = () => undefined,
): Record<string, boolean> {
  const gates: Record<string, boolean> = {};
  for (const text of occurrences) {
    try {
      const pairs = parseFeatureGateText(text);
      for (const warning of checkFeatureGates(pairs)) warn(warning);
      for (const [name, value] of pairs) gates[name] = value;
    } catch (e) {
      if (e instanceof FeatureGateError) throw invalid('feature-gates', text, e.message);
      throw e;
    }
  }
  return gates;
}

/** `--feature-gates` into `options`. */
export function featureGatesOf(
  raw: RawFlags<FeatureGateFlag>,
  options: NodeHostOptions,
  warn: (message: string) => void,
): void {
  const gateFlags = raw.lists['feature-gates'];
  if (gateFlags !== undefined) options.featureGates = parseFeatureGates(gateFlags, warn);
}
