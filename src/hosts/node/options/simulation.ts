/**
 * The simulated cluster (scheduler, node agents): `--nodes`,
 * `--node-capacity`, `--node-labels` and `--simulation-speed`, validated as
 * the sandbox settings API validates them; `--default-storage-class`
 * (whether its start makes the default StorageClass) and `--scheduler`
 * (whether the scheduler runs).
 */

import { namingProfile } from '../../../machinery/naming';
import {
  parseLabelList,
  SettingsError,
  validateSimulationSettings,
  type SimulationSettings,
} from '../../../server/index';
import type { NodeHostOptions } from '../host';
import { invalid, type FlagDecl, type RawFlags } from './flags';

export const simulationFlags = {
  nodes: {
    kind: 'string',
    type: 'int',
    section: 'simulation',
    usage: 'How many simulated nodes run beside the server (0: none; pods then stay Pending).',
    default: '3',
  },
  'node-capacity': {
    kind: 'string',
    type: 'mapStringString',
    section: 'simulation',
    usage: "Each simulated node's capacity (and allocatable), e.g. cpu=4,memory=8Gi,pods=110.",
    default: 'cpu=4,ephemeral-storage=100Gi,memory=8Gi,pods=110',
  },
  'node-labels': {
    kind: 'string',
    type: 'mapStringString',
    section: 'simulation',
    usage:
      "Labels each simulated node registers with, as the kubelet's --node-labels (key=value,...; labels in the product's domain only those a node may set on itself).",
  },
  'default-storage-class': {
    kind: 'bool',
    section: 'simulation',
    usage:
      "Make the default StorageClass 'standard' when the simulated cluster starts, as kind and minikube install one (false: no StorageClass, as a bare kube-apiserver and controller manager have).",
    default: 'true',
  },
  scheduler: {
    kind: 'bool',
    section: 'simulation',
    usage:
      'Run the scheduler beside the server (false: pods stay unscheduled unless they name a node, as in a control plane without kube-scheduler).',
    default: 'true',
  },
  'simulation-speed': {
    kind: 'string',
    section: 'simulation',
    usage:
      "How fast simulated durations pass (image pulls, container creation): a factor (1 is real time, 10 ten times as fast) or 'instant'. The server's clock times everything else.",
    default: '1',
  },
} as const satisfies Record<string, FlagDecl>;

type SimulationFlag = keyof typeof simulationFlags;

/**
 * `--nodes`, `--node-capacity`, `--node-labels`, `--simulation-speed`: the simulated cluster's settings;
 * `--default-storage-class=false`: none made; `--scheduler=false`: no scheduler.
 */
export function simulationOf(raw: RawFlags<SimulationFlag>, options: NodeHostOptions): void {
  const s = raw.strings;
  const parts: { defaultStorageClass?: boolean; scheduler?: boolean } = {};
  if (raw.bools['default-storage-class'] === false) parts.defaultStorageClass = false;
  if (raw.bools.scheduler === false) parts.scheduler = false;
  if (Object.keys(parts).length > 0) options.simulation = parts;
  const settings: Partial<SimulationSettings> = {};
  if (s.nodes !== undefined) {
    if (!/^\d+$/.test(s.nodes))
      throw invalid('nodes', s.nodes, `strconv.ParseInt: parsing ${JSON.stringify(s.nodes)}: invalid syntax`);
    settings.nodes = Number(s.nodes);
  }
  const map = (flag: 'node-capacity' | 'node-labels'): Record<string, string> | undefined => {
    const text = s[flag];
    if (text === undefined) return undefined;
    try {
      return parseLabelList(text);
    } catch (e) {
      throw invalid(flag, text, (e as Error).message);
    }
  };
  const capacity = map('node-capacity');
  if (capacity !== undefined) settings.capacity = capacity;
  const labels = map('node-labels');
  if (labels !== undefined) settings.labels = labels;
  const speed = s['simulation-speed'];
  if (speed !== undefined) settings.speed = speed === 'instant' ? 'instant' : Number(speed);
  if (Object.keys(settings).length === 0) return;
  const base = options.simulation === undefined || options.simulation === false ? {} : options.simulation;
  try {
    validateSimulationSettings(namingProfile(options.profile ?? 'orch'), settings);
  } catch (e) {
    if (!(e instanceof SettingsError)) throw e;
    const flag = /label/.test(e.message)
      ? 'node-labels'
      : /capacity/.test(e.message)
        ? 'node-capacity'
        : /speed/.test(e.message)
          ? 'simulation-speed'
          : 'nodes';
    throw invalid(flag, s[flag] ?? '', e.message);
  }
  options.simulation = { ...base, settings };
}
