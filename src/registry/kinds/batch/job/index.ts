/**
 * Job: the selector and pod-template labels the real strategy generates at
 * create unless `manualSelector` is true — `controller-uid` and `job-name`
 * with their v1.27 prefixed twins (`batch.<domain>/…`), the selector on the
 * prefixed uid label — and the validation of a selector against them
 * (`selector` not auto-generated, labels that must carry the generated values).
 * A Job defaulted to its template's labels shows the generated ones too.
 */

import type { KubeObject } from '../../../../api/meta';
import { GoValueText, type FieldError } from '../../../../machinery/field-errors';
import type { NamingProfile } from '../../../../machinery/naming';
import type { KindHooks, StrategyContext } from '../../../rest/strategy';
import type { KindRegistration } from '../../types';
import { withWorkloadChecks, type Checks } from '../../../validation/workload-checks';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function child(parent: Obj, key: string): Obj {
  const v = parent[key];
  if (isObj(v)) return v;
  const made: Obj = {};
  parent[key] = made;
  return made;
}

interface JobLabels {
  legacyUid: string;
  legacyName: string;
  uid: string;
  name: string;
}

function labelsOf(profile: NamingProfile): JobLabels {
  return {
    legacyUid: 'controller-uid',
    legacyName: 'job-name',
    uid: profile.subPrefixed('batch', 'controller-uid'),
    name: profile.subPrefixed('batch', 'job-name'),
  };
}

const manual = (spec: Obj) => spec.manualSelector === true;

function generateSelector(job: KubeObject, l: JobLabels): void {
  const spec = isObj(job.spec) ? job.spec : (job.spec = {});
  const template = child(spec as Obj, 'template');
  const labels = child(child(template, 'metadata'), 'labels') as Record<string, unknown>;
  const uid = job.metadata?.uid ?? '';
  const name = job.metadata?.name ?? '';
  // A label the user set is kept: validation refuses it when it is wrong.
  for (const key of [l.legacyName, l.name]) if (!(key in labels)) labels[key] = name;
  for (const key of [l.legacyUid, l.uid]) if (!(key in labels)) labels[key] = uid;
  const selector = child(spec as Obj, 'selector');
  const matchLabels = child(selector, 'matchLabels');
  if (!(l.uid in matchLabels)) matchLabels[l.uid] = uid;
}

function sameLabels(a: Obj, b: Obj): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((k) => a[k] === b[k]);
}

/** The real `validateGeneratedSelector` for a new Job (prefixed labels required). */
function generatedSelectorErrors(checks: Checks, job: KubeObject, l: JobLabels): FieldError[] {
  const spec = isObj(job.spec) ? job.spec : {};
  if (manual(spec)) return [];
  const template = isObj(spec.template) ? spec.template : {};
  const meta = isObj(template.metadata) ? template.metadata : {};
  const path = 'spec.template.metadata';
  if (!isObj(meta.labels))
    return [
      {
        type: 'FieldValueInvalid',
        field: `${path}.labels`,
        badValue: null,
        detail: 'expected non-nil template labels',
      },
    ];
  const labels = meta.labels;
  const errors: FieldError[] = [];
  if (!isObj(spec.selector)) return [{ type: 'FieldValueRequired', field: 'spec.selector', detail: '' }];
  const uid = job.metadata?.uid ?? '';
  const name = job.metadata?.name ?? '';
  const hasLabel = (key: string, expected: string) => {
    if (!(key in labels))
      errors.push({ type: 'FieldValueRequired', field: `${path}.labels[${key}]`, detail: expected });
    else if (labels[key] !== expected)
      errors.push({
        type: 'FieldValueInvalid',
        field: `${path}.labels[${key}]`,
        badValue: new GoValueText(checks.goStringMap(labels)),
        detail: `must be '${expected}'`,
      });
  };
  hasLabel(l.legacyUid, uid);
  hasLabel(l.legacyName, name);
  hasLabel(l.uid, uid);
  hasLabel(l.name, name);
  const selector = spec.selector;
  const matchLabels = isObj(selector.matchLabels) ? selector.matchLabels : undefined;
  const same =
    matchLabels !== undefined &&
    Object.keys(matchLabels).length === 1 &&
    matchLabels[l.uid] === uid &&
    !(Array.isArray(selector.matchExpressions) && selector.matchExpressions.length > 0);
  if (!same)
    errors.push({
      type: 'FieldValueInvalid',
      field: 'spec.selector',
      badValue: new GoValueText(checks.goLabelSelector(selector, true)),
      detail: '`selector` not auto-generated',
    });
  return errors;
}

/** A manual selector must exist and match the template's labels (the real `ValidateJobSpec`). */
function manualSelectorErrors(checks: Checks, job: KubeObject): FieldError[] {
  const spec = isObj(job.spec) ? job.spec : {};
  if (!manual(spec)) return [];
  if (!isObj(spec.selector)) return [{ type: 'FieldValueRequired', field: 'spec.selector', detail: '' }];
  const selector = spec.selector;
  const template = isObj(spec.template) ? spec.template : {};
  const meta = isObj(template.metadata) ? template.metadata : {};
  const labels = isObj(meta.labels) ? meta.labels : {};
  const matches = checks.selectorMatches(selector, labels);
  return matches
    ? []
    : [
        {
          type: 'FieldValueInvalid',
          field: 'spec.template.metadata.labels',
          badValue: new GoValueText(checks.goStringMap(labels)),
          detail: '`selector` does not match template `labels`',
        },
      ];
}

function jobHooks(): KindHooks {
  return {
    prepareForCreate(obj: KubeObject, ctx: StrategyContext) {
      const spec = isObj(obj.spec) ? obj.spec : {};
      if (manual(spec)) return;
      // Defaulting gave a Job without labels its template's labels; in Go both name the same map, so the
      // labels generated into the template show on the Job too. Labels equal to the template's stand for that.
      const template = isObj(spec.template) ? spec.template : {};
      const templateLabels = isObj(template.metadata) ? template.metadata.labels : undefined;
      const shared =
        isObj(templateLabels) &&
        isObj(obj.metadata?.labels) &&
        sameLabels(obj.metadata.labels, templateLabels);
      generateSelector(obj, labelsOf(ctx.profile));
      if (shared && obj.metadata !== undefined) {
        const generated = (spec.template as Obj).metadata as Obj;
        obj.metadata.labels = { ...(generated.labels as Record<string, string>) };
      }
    },
    // An update keeps the selector and labels it was created with; only the manual-selector rules apply again.
    validateAsync: withWorkloadChecks((checks, obj, old, ctx) =>
      old === undefined
        ? [
            ...generatedSelectorErrors(checks, obj, labelsOf(ctx.profile)),
            ...manualSelectorErrors(checks, obj),
          ]
        : manualSelectorErrors(checks, obj),
    ),
  };
}

export const job: KindRegistration = { hooks: jobHooks() };
