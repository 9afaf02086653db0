/**
 * Golden tests of the lifecycle stages, as kwok's: each
 * `testdata/<case>.input.yaml` holds an object as the node agent finds it
 * (a pod with the status it last wrote, and what the runtime knows that
 * the status does not say — a pull's outcome, a process's exit), and
 * `<case>.output.yaml` the stage each part of it is in (with its delay),
 * the Events and actions that stage brings, and the pod's status once
 * they applied. `UPDATE_GOLDEN=1 npx vitest run src/simulation/stages`
 * rewrites the outputs (then `npx prettier --write` them), to be read
 * before they are committed.
 */

import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import type { Pod } from '../../api/pod';
import { formatGoDuration } from '../../machinery/go-duration';
import type { ExitInfo } from '../containers/container';
import { fakeDigest, normalizeImage } from '../containers/images';
import { containerView, podView } from '../kubelet/container-view';
import { generatePodStatus } from '../kubelet/pod-status';
import { newPodRecord, type ContainerRecord, type PodRecord } from '../kubelet/records';
import { restoreRecord, wasAccepted } from '../kubelet/restore';
import {
  enterState,
  recordCreated,
  recordPulled,
  recordRestart,
  recordStarted,
} from '../kubelet/transitions';
import { containerStages } from './container-stages';
import { nodeStages } from './node-stages';
import { podStages } from './pod-stages';
import { apply, dueAt, selectStage, type Stage } from './stage';

interface ContainerFacts {
  /** The lifecycle state the node agent holds (the status does not say, e.g. `pulling`). */
  state?: string;
  pull?: { ok: boolean; ms: number; duration: string; error?: string };
  exit?: ExitInfo;
  configError?: string;
  startError?: string;
  prepared?: boolean;
}

interface PodCase {
  now: string;
  pod: Pod;
  /** The pod record's own facts (sandbox, state) where the status does not show them. */
  record?: Partial<Pick<PodRecord, 'state' | 'sandboxReady' | 'podIP'>>;
  containers?: Record<string, ContainerFacts>;
  nodeImages?: string[];
}

interface NodeCase {
  now: string;
  node: Record<string, unknown>;
}

const dir = new URL('./testdata/', import.meta.url);

function after(stage: Stage, view: unknown, now: number): string {
  return formatGoDuration(dueAt(stage, view, now, 1, () => 0) - now);
}

type Applied = { object: string; stage: string; after: string; events?: string[]; action?: string };

function describeStage(object: string, stage: Stage, view: unknown, now: number): Applied {
  const a = apply(stage, view);
  return {
    object,
    stage: stage.name,
    after: after(stage, view, now),
    ...(a.events.length > 0 ? { events: a.events.map((e) => `${e.type} ${e.reason}: ${e.message}`) } : {}),
    ...(a.action !== undefined ? { action: a.action } : {}),
  };
}

/** One step of a pod's lifecycle: every part's stage, applied as if its delay had passed. */
function podStep(input: PodCase): unknown {
  const now = Date.parse(input.now);
  const pod = input.pod;
  const record: PodRecord = wasAccepted(pod) ? restoreRecord(pod, now) : newPodRecord(pod);
  Object.assign(record, input.record ?? {});
  const exits = new Map<ContainerRecord, ExitInfo>();
  for (const c of record.containers) {
    const facts = input.containers?.[c.name] ?? {};
    if (facts.state !== undefined) c.state = facts.state;
    if (facts.pull !== undefined) c.pull = facts.pull;
    if (facts.configError !== undefined) c.configError = facts.configError;
    if (facts.startError !== undefined) c.startError = facts.startError;
    if (facts.exit !== undefined) {
      exits.set(c, facts.exit);
      // What the view reads of a process: its exit.
      c.process = { exit: facts.exit } as unknown as ContainerRecord['process'];
    }
  }
  const images = new Set((input.nodeImages ?? []).map((i) => normalizeImage(i).normalized));
  const steps: Applied[] = [];
  const podStage = selectStage(podStages, podView(pod, record));
  if (podStage !== undefined) {
    steps.push(describeStage('pod', podStage, podView(pod, record), now));
    const a = apply(podStage, podView(pod, record));
    if (a.state !== undefined) record.state = a.state;
    if (a.action === 'accept') record.startTime = now;
    if (a.action === 'sandbox') {
      record.sandboxReady = true;
      record.podIP ??= '10.244.0.2';
    }
    if (a.action === 'deadline')
      record.failed = {
        reason: 'DeadlineExceeded',
        message: 'Pod was active on the node longer than the specified deadline',
      };
  }
  for (const c of record.containers) {
    const facts = input.containers?.[c.name] ?? {};
    const view = {
      ...containerView({ pod, record, container: c, nodeImages: images, crashStreak: c.restartCount }),
      prepared: facts.prepared ?? true,
      preparing: false,
    };
    const stage = selectStage(containerStages, view);
    if (stage === undefined) continue;
    steps.push(describeStage(`container ${c.name}`, stage, view, now));
    const a = apply(stage, view);
    if (a.state !== undefined) enterState(c, a.state, a.waiting, now, exits.get(c));
    switch (a.action) {
      case 'imagePulled':
        recordPulled(c, normalizeImage(c.spec.image ?? ''));
        break;
      case 'create':
        recordCreated(c, fakeDigest(`${record.uid}/${c.name}/${c.restartCount}`), c.startError);
        break;
      case 'start':
        recordStarted(c, now);
        c.ready = c.spec.readinessProbe === undefined;
        c.started = true;
        break;
      case 'restart':
        recordRestart(c);
        break;
    }
  }
  return { steps, status: generatePodStatus(pod, record, now, '172.18.0.2') };
}

function nodeStep(input: NodeCase): unknown {
  const now = Date.parse(input.now);
  const stage = selectStage(nodeStages, input.node);
  return { steps: stage === undefined ? [] : [describeStage('node', stage, input.node, now)] };
}

describe('lifecycle stages (golden)', () => {
  const cases = readdirSync(dir).filter((f) => f.endsWith('.input.yaml'));
  it('has cases', () => expect(cases.length).toBeGreaterThan(10));
  for (const file of cases) {
    const name = file.replace(/\.input\.yaml$/, '');
    it(name, () => {
      const input = parse(readFileSync(new URL(file, dir), 'utf8')) as PodCase & NodeCase;
      const actual = input.node !== undefined ? nodeStep(input) : podStep(input);
      const outputFile = new URL(`${name}.output.yaml`, dir);
      if (process.env['UPDATE_GOLDEN'] === '1')
        writeFileSync(outputFile, stringify(actual, { lineWidth: 0 }));
      expect(actual).toEqual(parse(readFileSync(outputFile, 'utf8')));
    });
  }
});
