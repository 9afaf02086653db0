/**
 * The three ways out of an apply conflict, as the spec lists them, each
 * with the exact request it sends and the configuration the manager holds
 * afterwards: force (take the fields over), drop the fields (release them),
 * adopt the server's values (share them).
 */

import type { KubeObject, StatusCause } from '../../api/meta';
import { adoptFields, applyRequest, dropFields } from './apply-request';
import type { Way } from './ConflictWays';
import type { LabManager } from './lab-state';

export function waysOut(
  manager: LabManager,
  causes: StatusCause[],
  objectPath: string,
  live: KubeObject | undefined,
): Way[] {
  const fields = causes.flatMap((c) => (c.field === undefined ? [] : [c.field]));
  // A configuration the edit cannot handle stays as it is; its request then shows that.
  const safely = (edit: () => string) => {
    try {
      return edit();
    } catch {
      return manager.yaml;
    }
  };
  const dropped = safely(() => dropFields(manager.yaml, fields));
  const adopted = safely(() => adoptFields(manager.yaml, fields, live));
  return [
    {
      id: 'force',
      title: 'Force',
      explanation: `Send again with force=true: ${manager.name} takes the fields over and they leave the other managers’ entries.`,
      request: applyRequest(objectPath, manager.name, manager.yaml, true),
      yaml: manager.yaml,
    },
    {
      id: 'drop',
      title: 'Drop the fields',
      explanation: `Remove them from ${manager.name}’s configuration: it releases them and the other managers keep their values.`,
      request: applyRequest(objectPath, manager.name, dropped, false),
      yaml: dropped,
    },
    {
      id: 'adopt',
      title: "Adopt the server's values",
      explanation: `Set them to the values on the server: ${manager.name} then shares ownership, and any later change by either conflicts.`,
      request: applyRequest(objectPath, manager.name, adopted, false),
      yaml: adopted,
    },
  ];
}
