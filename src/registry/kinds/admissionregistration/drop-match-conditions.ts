/**
 * With the AdmissionWebhookMatchConditions gate off (its v1.27 default), a
 * webhook configuration is stored without its webhooks' `matchConditions`
 * unless the stored configuration already uses them — the real strategy's
 * dropDisabledFields — so conditions written while the gate is off never
 * take effect later by surprise.
 */

import type { KubeObject } from '../../../api/meta';
import { isPlainObject } from '../../../machinery/json';
import type { StrategyContext } from '../../rest/strategy';

function webhooks(obj: KubeObject): Record<string, unknown>[] {
  const list = (obj as { webhooks?: unknown }).webhooks;
  return Array.isArray(list) ? list.filter(isPlainObject) : [];
}

export function dropDisabledMatchConditions(
  obj: KubeObject,
  old: KubeObject | undefined,
  ctx: StrategyContext,
): void {
  // Absent gates mean v1.27's defaults, where this gate is off.
  if (ctx.featureGates?.AdmissionWebhookMatchConditions === true) return;
  if (old !== undefined && webhooks(old).some((w) => w.matchConditions !== undefined)) return;
  for (const w of webhooks(obj)) delete w.matchConditions;
}
