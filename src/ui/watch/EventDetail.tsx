/**
 * One event in full: for a MODIFIED, the diff against the state the
 * inspector saw before (what changed, including the resourceVersion); for
 * any event, the object as it arrived.
 */

import { useState } from 'react';
import { CodeBlock } from '../common/CodeBlock';
import { LineDiffView } from '../common/LineDiffView';
import { alignKeys, toYaml, withoutManagedFields } from '../lib/yaml-text';
import type { KubeObject } from '../../api/meta';
import type { InspectorLine } from './useWatchSession';

/**
 * `object` without the type fields `previous` lacks: a state from a list
 * (items carry no kind or apiVersion) would otherwise show them as added.
 */
function likeWith(previous: KubeObject | undefined, object: KubeObject): KubeObject {
  if (previous === undefined) return object;
  const { kind, apiVersion, ...rest } = object;
  return {
    ...(previous.apiVersion === undefined || apiVersion === undefined ? {} : { apiVersion }),
    ...(previous.kind === undefined || kind === undefined ? {} : { kind }),
    ...rest,
  };
}

export function EventDetail({ line }: { line: InspectorLine }) {
  const [full, setFull] = useState(false);
  const object = line.object as KubeObject;
  const canDiff = line.type === 'MODIFIED' && line.previous !== undefined;
  return (
    <section className="event-detail" aria-label="Event detail">
      <h3>
        {line.type} {line.name ?? ''} <span className="muted">rv {line.resourceVersion ?? '–'}</span>
      </h3>
      {line.type === 'MODIFIED' && line.previous === undefined ? (
        <p className="muted">
          No earlier state of this object was seen by this watch, so there is nothing to diff against.
        </p>
      ) : null}
      {canDiff ? (
        <label className="inline">
          <input type="checkbox" checked={full} onChange={(e) => setFull(e.target.checked)} /> Show the whole
          object
        </label>
      ) : null}
      {canDiff && !full ? (
        <LineDiffView
          before={toYaml(withoutManagedFields(line.previous as KubeObject))}
          after={toYaml(alignKeys(line.previous, withoutManagedFields(likeWith(line.previous, object))))}
          label="Changes against the previous state"
        />
      ) : (
        <CodeBlock text={toYaml(line.object)} label="The event's object" />
      )}
    </section>
  );
}
