/**
 * The apply-conflict lab: two or more field managers side by side, each
 * with its own applied configuration, applying to one object; a live view
 * of that object's ownership; on a 409 the conflict with its three ways
 * out. Guided scenarios walk through the spec's apply rules; `#/lab?path=`
 * starts from a stored object instead.
 */

import { useEffect, useMemo, useRef, useState } from 'react';
import type { KubeObject } from '../../api/meta';
import { ApiError, resourcePath, type ResourceRef } from '../../client/index';
import { useClient } from '../client-context';
import { useDiscovery } from '../app/DiscoveryContext';
import type { ViewProps } from '../app/view-props';
import { ErrorNotice } from '../common/ErrorNotice';
import { objectRefFor, parseManifest } from '../lib/manifest';
import { navigate } from '../lib/route';
import { toYaml, withoutServerFields } from '../lib/yaml-text';
import { applyRequest } from './apply-request';
import { ConflictWays, type Way } from './ConflictWays';
import { getAt, parseFieldPath } from './field-path';
import type { ApplyResult, LabManager, StepOutcome } from './lab-state';
import { ManagerCard } from './ManagerCard';
import { OwnershipView } from './OwnershipView';
import { ScenarioGuide } from './ScenarioGuide';
import { scenarios, type Scenario } from './scenarios';
import { useLiveObject } from './useLiveObject';
import { waysOut } from './ways-out';

let nextId = 1;
const managersOf = (scenario: Scenario): LabManager[] =>
  scenario.managers.map((m) => ({ id: nextId++, name: m.name, yaml: m.yaml }));

export function LabView({ params, active }: ViewProps) {
  const client = useClient();
  const groupVersions = useDiscovery().discovery?.groupVersions ?? [];
  const scenario = scenarios.find((s) => s.id === params['scenario']) ?? scenarios[0];
  const [managers, setManagers] = useState<LabManager[]>(() => managersOf(scenario as Scenario));
  const [outcomes, setOutcomes] = useState<(StepOutcome | undefined)[]>([]);
  const [busy, setBusy] = useState(false);
  const [setupError, setSetupError] = useState<unknown>(undefined);
  const [custom, setCustom] = useState<string | undefined>(undefined);
  // What the last step or way out produced, scrolled into view once rendered (a 409 renders below the cards).
  const [reveal, setReveal] = useState<{ target: string; n: number } | undefined>(undefined);
  const left = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (reveal === undefined) return;
    const element = left.current?.querySelector(`[data-reveal="${reveal.target}"]`);
    // "nearest" moves as little as possible, so the cards above stay in sight beside the result.
    element?.scrollIntoView({ block: 'nearest' });
  }, [reveal]);
  const show = (target: string) => setReveal((current) => ({ target, n: (current?.n ?? 0) + 1 }));

  const objectRef = useMemo(() => {
    for (const m of managers) {
      try {
        return objectRefFor(parseManifest(m.yaml), groupVersions, 'default');
      } catch {
        // try the next manager's configuration
      }
    }
    return undefined;
  }, [managers, groupVersions]);
  const objectPath = objectRef === undefined ? undefined : resourcePath(objectRef);
  const live = useLiveObject(objectRef);
  const names = managers.map((m) => m.name);
  const colorOf = (manager: string) => {
    const index = names.indexOf(manager);
    return index >= 0 ? index : names.length + (hash(manager) % 4);
  };

  // A scenario chosen by link, or an object to start from.
  const scenarioParam = params['scenario'];
  const pathParam = params['path'];
  useEffect(() => {
    if (pathParam === undefined) return;
    let live = true;
    client.send<KubeObject>('GET', pathParam).then(
      (answer) => {
        if (!live) return;
        const object = withoutServerFields(answer.body);
        const envelope = {
          apiVersion: object.apiVersion,
          kind: object.kind,
          metadata: { name: object.metadata?.name, namespace: object.metadata?.namespace },
        };
        setCustom(pathParam);
        setOutcomes([]);
        setManagers([
          { id: nextId++, name: 'alice', yaml: toYaml(object) },
          { id: nextId++, name: 'bob', yaml: toYaml(envelope) },
        ]);
      },
      (error: unknown) => live && setSetupError(error),
    );
    return () => {
      live = false;
    };
  }, [client, pathParam]);
  useEffect(() => {
    if (scenarioParam === undefined) return;
    const chosen = scenarios.find((s) => s.id === scenarioParam);
    if (chosen === undefined) return;
    setCustom(undefined);
    setManagers(managersOf(chosen));
    setOutcomes([]);
  }, [scenarioParam]);

  async function apply(
    index: number,
    force: boolean,
    yaml?: string,
    from: LabManager[] = managers,
  ): Promise<ApplyResult> {
    const manager = from[index];
    if (manager === undefined || objectPath === undefined)
      return { kind: 'error', error: new Error('no object to apply to') };
    const request = applyRequest(objectPath, manager.name, yaml ?? manager.yaml, force);
    let result: ApplyResult;
    try {
      const answer = await client.send<KubeObject>(request.method, request.path, {
        body: request.body,
        contentType: request.contentType,
        query: request.query,
      });
      result = {
        kind: 'ok',
        status: answer.status,
        resourceVersion: answer.body.metadata?.resourceVersion ?? '',
        warnings: answer.warnings,
        forced: force,
      };
    } catch (error) {
      result =
        error instanceof ApiError && error.code === 409 && error.reason === 'Conflict'
          ? { kind: 'conflict', causes: error.status.details?.causes ?? [], message: error.message }
          : { kind: 'error', error };
    }
    setManagers((current) =>
      current.map((m, i) => (i === index ? { ...m, ...(yaml !== undefined ? { yaml } : {}), result } : m)),
    );
    show(result.kind === 'conflict' ? `conflict-${manager.id}` : `manager-${manager.id}`);
    return result;
  }

  async function run(task: () => Promise<void>) {
    setBusy(true);
    try {
      await task();
    } finally {
      setBusy(false);
    }
  }

  async function runStep(index: number) {
    const step = scenario?.steps[index];
    if (step === undefined || objectRef === undefined) return;
    // Step 1 assumes the scenario's start: run again after earlier steps, it starts the scenario over first.
    const again = index === 0 && custom === undefined && outcomes.some((o) => o !== undefined);
    const current = again && scenario !== undefined ? await startOver(scenario) : managers;
    const managerIndex = current.findIndex((m) => m.name === step.manager);
    if (managerIndex < 0) return;
    const result = await apply(managerIndex, step.force === true, step.yaml, current);
    let passed = result.kind === (step.expect === 'ok' ? 'ok' : 'conflict');
    let text =
      result.kind === 'ok'
        ? `HTTP ${result.status}: applied`
        : result.kind === 'conflict'
          ? `409 Conflict on ${result.causes.map((c) => c.field).join(', ')}`
          : `failed: ${result.error instanceof Error ? result.error.message : String(result.error)}`;
    if (passed && step.check !== undefined && result.kind === 'ok') {
      const object = await client.get(objectRef);
      const present = getAt(object, parseFieldPath(step.check.path)).found;
      passed = present === step.check.present;
      text += `; ${step.check.path} is ${present ? 'there' : 'gone'}`;
    }
    if (again) text = `Started over (object deleted, configurations restored). ${text}`;
    setOutcomes((current) => {
      const next = [...current];
      next[index] = {
        passed,
        text: passed ? `${text}, as the rule says` : `${text}; the rule says otherwise`,
      };
      return next;
    });
  }

  /** Deletes the scenario's object (releasing finalizers first), so the scenario starts from nothing. */
  async function startOver(chosen: Scenario): Promise<LabManager[]> {
    setSetupError(undefined);
    setCustom(undefined);
    const fresh = managersOf(chosen);
    setManagers(fresh);
    setOutcomes([]);
    try {
      const ref = objectRefFor(parseManifest(fresh[0]?.yaml ?? ''), groupVersions, 'default');
      await removeObject(ref);
    } catch (error) {
      setSetupError(error);
    }
    return fresh;
  }

  async function removeObject(ref: ResourceRef & { name: string }) {
    let existing: KubeObject | undefined;
    try {
      existing = await client.get(ref);
    } catch (error) {
      if (error instanceof ApiError && error.code === 404) return;
      throw error;
    }
    if ((existing.metadata?.finalizers ?? []).length > 0)
      await client.patch(ref, { metadata: { finalizers: null } }, 'application/merge-patch+json');
    await client.delete(ref).catch((error: unknown) => {
      if (!(error instanceof ApiError && error.code === 404)) throw error;
    });
    for (let i = 0; i < 50; i++) {
      try {
        await client.get(ref);
      } catch (error) {
        if (error instanceof ApiError && error.code === 404) return;
        throw error;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  const chooseWay = (index: number, way: Way) =>
    void run(async () => {
      await apply(index, way.id === 'force', way.yaml);
    });

  return (
    <main className="lab-view" id={active ? 'main' : undefined} tabIndex={-1}>
      <div className="lab-top">
        <h2>Apply lab</h2>
        <label>
          Scenario{' '}
          <select
            aria-label="Scenario"
            value={custom === undefined ? scenario?.id : ''}
            onChange={(e) => navigate('lab', { scenario: e.target.value })}
          >
            {custom !== undefined ? <option value="">From {custom}</option> : null}
            {scenarios.map((s) => (
              <option key={s.id} value={s.id}>
                {s.title}
              </option>
            ))}
          </select>
        </label>
        <button
          type="button"
          className="secondary"
          disabled={busy || scenario === undefined || groupVersions.length === 0}
          onClick={() => scenario && void run(async () => void (await startOver(scenario)))}
        >
          Start over
        </button>
        <button
          type="button"
          className="secondary"
          disabled={managers.length >= 4}
          onClick={() =>
            setManagers([
              ...managers,
              {
                id: nextId++,
                name: ['carol', 'dave'][managers.length - 2] ?? `manager${managers.length + 1}`,
                yaml: managers.at(-1)?.yaml ?? '',
              },
            ])
          }
        >
          Add manager
        </button>
        <span className="muted">
          Object: {objectPath ?? '(none: a configuration needs apiVersion, kind and name)'}
        </span>
      </div>
      {setupError !== undefined ? <ErrorNotice title="Could not prepare the lab" error={setupError} /> : null}
      <div className="lab-body">
        <div className="lab-left" ref={left}>
          {custom === undefined && scenario !== undefined ? (
            <ScenarioGuide
              scenario={scenario}
              outcomes={scenario.steps.map((_, i) => outcomes[i])}
              busy={busy || groupVersions.length === 0}
              onRun={(i) => void run(() => runStep(i))}
            />
          ) : null}
          <div className="managers">
            {managers.map((manager, index) => (
              <ManagerCard
                reveal={`manager-${manager.id}`}
                key={manager.id}
                manager={manager}
                colorIndex={index}
                objectPath={objectPath}
                busy={busy}
                canRemove={managers.length > 2}
                onChange={(next) => setManagers(managers.map((m, i) => (i === index ? next : m)))}
                onApply={(force) => void run(async () => void (await apply(index, force)))}
                onRemove={() => setManagers(managers.filter((_, i) => i !== index))}
              />
            ))}
          </div>
          {managers.map((manager, index) =>
            manager.result?.kind === 'conflict' && objectPath !== undefined ? (
              <ConflictWays
                key={manager.id}
                reveal={`conflict-${manager.id}`}
                manager={manager.name}
                causes={manager.result.causes}
                ways={waysOut(manager, manager.result.causes, objectPath, live)}
                busy={busy}
                onChoose={(way) => chooseWay(index, way)}
              />
            ) : null,
          )}
        </div>
        <OwnershipView
          object={live}
          colorOf={colorOf}
          title={objectRef === undefined ? 'Object' : `${objectRef.resource}/${objectRef.name}`}
        />
      </div>
    </main>
  );
}

function hash(text: string): number {
  let h = 0;
  for (const c of text) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return h;
}
