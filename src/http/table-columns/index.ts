/**
 * Finds the printer of a served resource: built-in kinds of the core,
 * apps, batch, autoscaling and policy groups and of the product-suffixed
 * groups (spelled by the active profile). Custom resources and kinds
 * without a printer get the default columns.
 */

import type { NamingProfile } from '../../machinery/naming';
import type { ResourceType } from '../../registry/resource-type';
import type { Printer } from './printer';
import { corePrinters } from './core';
import { appsPrinters, autoscalingPrinters, batchPrinters, policyPrinters } from './workloads';
import { suffixedPrinters } from './cluster';
import { controlPlanePrinters } from './control-plane';

export type { Printer, PrintContext, RowCondition } from './printer';

const byProfile = new Map<string, Map<string, Printer>>();

function table(profile: NamingProfile): Map<string, Printer> {
  let t = byProfile.get(profile.name);
  if (t !== undefined) return t;
  t = new Map();
  const add = (group: string, printers: Record<string, Printer>): void => {
    for (const [kind, p] of Object.entries(printers)) t?.set(`${group}/${kind}`, p);
  };
  add('', corePrinters);
  add('apps', appsPrinters);
  add('batch', batchPrinters);
  add('autoscaling', autoscalingPrinters);
  add('policy', policyPrinters);
  for (const [base, printers] of Object.entries(suffixedPrinters)) add(profile.suffixed(base), printers);
  for (const [base, printers] of Object.entries(controlPlanePrinters)) add(profile.suffixed(base), printers);
  byProfile.set(profile.name, t);
  return t;
}

export function printerFor(
  profile: NamingProfile,
  rt: Pick<ResourceType, 'group' | 'kind' | 'custom'>,
): Printer | undefined {
  return rt.custom ? undefined : table(profile).get(`${rt.group}/${rt.kind}`);
}
