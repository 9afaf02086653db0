/**
 * What a workshop presenter hands attendees, read from a file, a URL or a
 * link: a scenario (`kind: Scenario` with objects to create, each
 * optionally applied by a named field manager, and settings), plain
 * manifests (multi-document YAML, JSON, or a `List`), or a whole exported
 * state (the Dexie export document), which is imported instead. Scenarios
 * also travel inside a link, compressed (deflate) and base64url-encoded.
 */

import type { KubeObject } from '../../api/meta';
import { parseYamlDocuments } from '../lib/yaml-text';
import { PROFILES } from '../../machinery/naming';

export interface ScenarioObject {
  /** Applied (server-side apply, forced) as this field manager; created with POST when unset. */
  manager?: string;
  object: KubeObject;
}

export interface WorkshopScenario {
  title: string;
  description?: string;
  objects: ScenarioObject[];
  settings?: { compactionIntervalMs?: number; featureGates?: Record<string, boolean> };
  /** A route of the app to open once loaded, e.g. `#/lab?scenario=conflict`. */
  open?: string;
}

export type WorkshopFile = { kind: 'scenario'; scenario: WorkshopScenario } | { kind: 'state'; text: string };

export function readWorkshopFile(text: string, fallbackTitle: string): WorkshopFile {
  const trimmed = text.trim();
  if (trimmed.startsWith('{')) {
    try {
      const json = JSON.parse(trimmed) as { formatName?: unknown };
      if (json.formatName === 'dexie') return { kind: 'state', text: trimmed };
    } catch {
      // not JSON: read as YAML below
    }
  }
  const documents = parseYamlDocuments(text).filter(
    (d): d is KubeObject => typeof d === 'object' && d !== null,
  );
  const first = documents[0];
  if (documents.length === 1 && first?.kind === 'Scenario')
    return { kind: 'scenario', scenario: scenarioOf(first, fallbackTitle) };
  const objects = documents.flatMap((d) =>
    Array.isArray(d['items']) && d.kind?.endsWith('List') ? (d['items'] as KubeObject[]) : [d],
  );
  if (objects.length === 0) throw new Error('The file holds no objects.');
  for (const object of objects)
    if (typeof object.apiVersion !== 'string' || typeof object.kind !== 'string')
      throw new Error('Every object needs apiVersion and kind.');
  return {
    kind: 'scenario',
    scenario: { title: fallbackTitle, objects: objects.map((object) => ({ object })) },
  };
}

function scenarioOf(document: KubeObject, fallbackTitle: string): WorkshopScenario {
  const raw = document as KubeObject & {
    title?: unknown;
    description?: unknown;
    objects?: unknown;
    settings?: WorkshopScenario['settings'];
    open?: unknown;
  };
  if (!Array.isArray(raw.objects)) throw new Error('A Scenario needs a list of objects.');
  const objects = raw.objects.map((entry: unknown): ScenarioObject => {
    const item = entry as { manager?: unknown; object?: unknown; apiVersion?: unknown };
    if (typeof item.object === 'object' && item.object !== null)
      return typeof item.manager === 'string'
        ? { manager: item.manager, object: item.object as KubeObject }
        : { object: item.object as KubeObject };
    return { object: entry as KubeObject };
  });
  const scenario: WorkshopScenario = {
    title: typeof raw.title === 'string' ? raw.title : (document.metadata?.name ?? fallbackTitle),
    objects,
  };
  if (typeof raw.description === 'string') scenario.description = raw.description;
  if (raw.settings !== undefined) scenario.settings = raw.settings;
  if (typeof raw.open === 'string') scenario.open = raw.open;
  return scenario;
}

/** The scenario as a link parameter: JSON, deflated, base64url. */
export async function encodeScenario(scenario: WorkshopScenario): Promise<string> {
  const bytes = new TextEncoder().encode(
    JSON.stringify({ kind: 'Scenario', apiVersion: `${PROFILES.orch.suffixed('sandbox')}/v1`, ...scenario }),
  );
  const packed = new Uint8Array(
    await new Response(
      new Blob([bytes]).stream().pipeThrough(new CompressionStream('deflate-raw')),
    ).arrayBuffer(),
  );
  let binary = '';
  for (const byte of packed) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function decodeScenario(data: string): Promise<string> {
  const base64 = data.replace(/-/g, '+').replace(/_/g, '/');
  const binary = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new Response(new Blob([bytes]).stream().pipeThrough(new DecompressionStream('deflate-raw'))).text();
}
