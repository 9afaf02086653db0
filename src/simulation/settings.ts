/**
 * The simulation's settings, as the Node host's flags and the workshop
 * settings give them: how many nodes (default 3), each node's capacity and
 * extra labels, and the speed of simulated durations (image pulls,
 * container creation; 1 is real time, `instant` skips them — the server's
 * clock, which the learner moves, times everything else). Checked as the
 * kubelet checks its `--node-labels`: labels in the product's own domain
 * are refused unless a node agent may set them on itself.
 */

import type { NamingProfile } from '../machinery/naming';
import { parseQuantity } from '../machinery/quantity';

export type Speed = number | 'instant';

export interface SimulationSettings {
  nodes: number;
  capacity: Record<string, string>;
  labels: Record<string, string>;
  speed: Speed;
}

export const defaultSimulationSettings: SimulationSettings = {
  nodes: 3,
  capacity: { cpu: '4', memory: '8Gi', pods: '110', 'ephemeral-storage': '100Gi' },
  labels: {},
  speed: 1,
};

/** The most nodes the simulation runs (their pod CIDRs are /24s under 10.244.0.0/14). */
export const maxNodes = 1000;

export class SettingsError extends Error {}

const labelKeyRe =
  /^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*\/)?[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$/;
const labelValueRe = /^(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?$/;

/** The kubelet's check of `--node-labels`: product-domain labels only among those a node may set on itself. */
export function forbiddenNodeLabels(profile: NamingProfile, labels: Record<string, string>): string[] {
  const d = profile.labelDomain;
  const domains = [...new Set([d, profile.groupSuffix])];
  const own = new Set([
    `${d}/hostname`,
    `${d}/os`,
    `${d}/arch`,
    `beta.${d}/os`,
    `beta.${d}/arch`,
    `beta.${d}/instance-type`,
    `node.${d}/instance-type`,
    `failure-domain.beta.${d}/region`,
    `failure-domain.beta.${d}/zone`,
    `topology.${d}/region`,
    `topology.${d}/zone`,
  ]);
  return Object.keys(labels)
    .filter((key) => {
      const slash = key.indexOf('/');
      const domain = slash < 0 ? '' : key.slice(0, slash);
      const inProduct = domains.some((p) => domain === p || domain.endsWith(`.${p}`));
      if (!inProduct || own.has(key)) return false;
      return !(
        domain === `kubelet.${d}` ||
        domain.endsWith(`.kubelet.${d}`) ||
        domain === `node.${d}` ||
        domain.endsWith(`.node.${d}`)
      );
    })
    .sort();
}

/** `key=value,key=value` (the `--node-labels` form). */
export function parseLabelList(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of text
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '')) {
    const eq = part.indexOf('=');
    if (eq < 0) throw new SettingsError(`invalid label ${JSON.stringify(part)}: expected key=value`);
    out[part.slice(0, eq)] = part.slice(eq + 1);
  }
  return out;
}

/** Checks settings as given (flags, the settings API) and fills in the defaults. */
export function validateSimulationSettings(
  profile: NamingProfile,
  input: Partial<SimulationSettings>,
): SimulationSettings {
  const s: SimulationSettings = { ...defaultSimulationSettings, ...input };
  if (!Number.isInteger(s.nodes) || s.nodes < 0 || s.nodes > maxNodes)
    throw new SettingsError(`nodes must be a whole number from 0 to ${maxNodes}`);
  const capacity = { ...defaultSimulationSettings.capacity, ...s.capacity };
  for (const [k, v] of Object.entries(capacity)) {
    const q = parseQuantity(v);
    if (q === undefined || q.nanos < 0n) throw new SettingsError(`capacity ${k}=${v} is not a quantity`);
  }
  for (const [k, v] of Object.entries(s.labels)) {
    if (!labelKeyRe.test(k) || k.length > 316)
      throw new SettingsError(`invalid node label key ${JSON.stringify(k)}`);
    if (!labelValueRe.test(v) || v.length > 63)
      throw new SettingsError(`invalid value ${JSON.stringify(v)} of node label ${k}`);
  }
  const forbidden = forbiddenNodeLabels(profile, s.labels);
  if (forbidden.length > 0)
    throw new SettingsError(
      `unknown ${[...new Set([profile.labelDomain, profile.groupSuffix])].map((d) => `'${d}'`).join(' or ')} labels specified with --node-labels: [${forbidden.join(' ')}]`,
    );
  if (
    s.speed !== 'instant' &&
    (typeof s.speed !== 'number' || !Number.isFinite(s.speed) || s.speed < 0.1 || s.speed > 1000)
  )
    throw new SettingsError("speed must be a number from 0.1 to 1000, or 'instant'");
  return { ...s, capacity };
}

/** The speed as the stage runner takes it. */
export function speedFactor(speed: Speed): number {
  return speed === 'instant' ? Infinity : speed;
}
