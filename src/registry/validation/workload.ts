/**
 * What the real validation checks of every workload that runs pods from a
 * template under a selector (Deployment, ReplicaSet, StatefulSet,
 * DaemonSet, ReplicationController, and Job's manual selector): a selector
 * that exists, is valid and is not empty; a template whose labels it
 * matches (``selector` does not match template `labels``); pods that
 * restart `Always` and carry no `activeDeadlineSeconds`; a selector that
 * no update may change (`field is immutable`). Bad values are printed as
 * Go prints them (`map[string]string{"app":"web"}`,
 * `v1.LabelSelector{…}`), as the real messages quote them.
 */

import { fieldError, GoValueText, type FieldError } from '../../machinery/field-errors';
import { deepEqual } from '../../machinery/json';
import { isLabelValue, isQualifiedName } from '../../machinery/names';
import { validateSelector } from '../kinds/admissionregistration/rule-validation';

type Obj = Record<string, unknown>;

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Go's `%#v` of a `map[string]string`, keys sorted as Go prints maps (`nil` for a missing map). */
export function goStringMap(m: unknown): string {
  if (!isObj(m)) return 'map[string]string(nil)';
  const entries = Object.keys(m)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${JSON.stringify(String(m[k]))}`);
  return `map[string]string{${entries.join(', ')}}`;
}

/** Go's `%#v` of a `metav1.LabelSelector` (`&` in front for a pointer the message does not dereference). */
export function goLabelSelector(selector: unknown, pointer = false): string {
  const s = isObj(selector) ? selector : {};
  const exprs = Array.isArray(s.matchExpressions) ? s.matchExpressions : undefined;
  const exprText =
    exprs !== undefined
      ? `[]v1.LabelSelectorRequirement{${exprs
          .map((e) => {
            const r = isObj(e) ? e : {};
            const values = Array.isArray(r.values)
              ? `[]string{${r.values.map((v) => JSON.stringify(v)).join(', ')}}`
              : '[]string(nil)';
            return `v1.LabelSelectorRequirement{Key:${JSON.stringify(r.key ?? '')}, Operator:${JSON.stringify(r.operator ?? '')}, Values:${values}}`;
          })
          .join(', ')}}`
      : '[]v1.LabelSelectorRequirement(nil)';
  return `${pointer ? '&' : ''}v1.LabelSelector{MatchLabels:${goStringMap(s.matchLabels)}, MatchExpressions:${exprText}}`;
}

/** Whether a LabelSelector matches `labels` (an empty selector matches everything). */
export function selectorMatches(selector: Obj, labels: Obj): boolean {
  const matchLabels = isObj(selector.matchLabels) ? selector.matchLabels : {};
  const exprs = Array.isArray(selector.matchExpressions) ? selector.matchExpressions.filter(isObj) : [];
  return (
    Object.entries(matchLabels).every(([k, v]) => labels[k] === v) &&
    exprs.every((e) => {
      const key = String(e.key ?? '');
      const values = Array.isArray(e.values) ? e.values.map(String) : [];
      const has = key in labels;
      switch (e.operator) {
        case 'In':
          return has && values.includes(String(labels[key]));
        case 'NotIn':
          return !has || !values.includes(String(labels[key]));
        case 'Exists':
          return has;
        case 'DoesNotExist':
          return !has;
        default:
          return false;
      }
    })
  );
}

/** `ValidateLabelSelector`: label keys and values of matchLabels, and the expressions. */
function labelSelectorErrors(selector: Obj, path: string): FieldError[] {
  const errors: FieldError[] = [];
  if (isObj(selector.matchLabels))
    for (const [k, v] of Object.entries(selector.matchLabels)) {
      for (const problem of isQualifiedName(k))
        errors.push(fieldError.invalid(`${path}.matchLabels`, k, problem));
      for (const problem of isLabelValue(typeof v === 'string' ? v : ''))
        errors.push(fieldError.invalid(`${path}.matchLabels`, v, problem));
    }
  return [...errors, ...validateSelector(selector, path)];
}

export interface TemplateRules {
  /** The word of the empty-selector message (`deployment` for ReplicaSets too, as upstream). */
  kindWord: string;
  /** The kind in the activeDeadlineSeconds message (`ReplicaSet`, `StatefulSet`, `DaemonSet`). */
  kindName: string;
}

/** A LabelSelector workload's selector and template (`spec` at `spec`). */
export function selectorAndTemplateErrors(obj: Obj, rules: TemplateRules): FieldError[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const errors: FieldError[] = [];
  const selector = spec.selector;
  if (!isObj(selector)) {
    errors.push(fieldError.required('spec.selector', ''));
  } else {
    errors.push(...labelSelectorErrors(selector, 'spec.selector'));
    const size =
      (isObj(selector.matchLabels) ? Object.keys(selector.matchLabels).length : 0) +
      (Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0);
    if (size === 0)
      errors.push(
        fieldError.invalid(
          'spec.selector',
          new GoValueText(goLabelSelector(selector)),
          `empty selector is invalid for ${rules.kindWord}`,
        ),
      );
  }
  errors.push(...templateErrors(spec, isObj(selector) ? selector : undefined, rules.kindName));
  return errors;
}

/** The template against its selector, and the pod rules of controllers that keep pods running. */
function templateErrors(spec: Obj, selector: Obj | undefined, kindName: string): FieldError[] {
  const template = spec.template;
  if (!isObj(template)) return [fieldError.required('spec.template', '')];
  const errors: FieldError[] = [];
  const meta = isObj(template.metadata) ? template.metadata : {};
  const labels = isObj(meta.labels) ? meta.labels : {};
  const selects =
    selector !== undefined &&
    ((isObj(selector.matchLabels) && Object.keys(selector.matchLabels).length > 0) ||
      (Array.isArray(selector.matchExpressions) && selector.matchExpressions.length > 0));
  if (selects && !selectorMatches(selector, labels))
    errors.push(
      fieldError.invalid(
        'spec.template.metadata.labels',
        new GoValueText(goStringMap(meta.labels)),
        '`selector` does not match template `labels`',
      ),
    );
  errors.push(...podRules(template, kindName));
  return errors;
}

function podRules(template: Obj, kindName: string): FieldError[] {
  const errors: FieldError[] = [];
  const podSpec = isObj(template.spec) ? template.spec : {};
  const restartPolicy = podSpec.restartPolicy ?? 'Always';
  if (restartPolicy !== 'Always')
    errors.push(fieldError.notSupported('spec.template.spec.restartPolicy', restartPolicy, ['Always']));
  if (podSpec.activeDeadlineSeconds !== undefined && podSpec.activeDeadlineSeconds !== null)
    errors.push(
      fieldError.forbidden(
        'spec.template.spec.activeDeadlineSeconds',
        `activeDeadlineSeconds in ${kindName} is not Supported`,
      ),
    );
  return errors;
}

/** A ReplicationController's map selector and template (its selector defaults to the template's labels). */
export function mapSelectorAndTemplateErrors(obj: Obj): FieldError[] {
  const spec = isObj(obj.spec) ? obj.spec : {};
  const errors: FieldError[] = [];
  const selector = isObj(spec.selector) ? spec.selector : {};
  if (Object.keys(selector).length === 0) errors.push(fieldError.required('spec.selector', ''));
  else
    for (const [k, v] of Object.entries(selector)) {
      for (const problem of isQualifiedName(k)) errors.push(fieldError.invalid('spec.selector', k, problem));
      for (const problem of isLabelValue(typeof v === 'string' ? v : ''))
        errors.push(fieldError.invalid('spec.selector', v, problem));
    }
  const template = spec.template;
  if (!isObj(template)) return [...errors, fieldError.required('spec.template', '')];
  const meta = isObj(template.metadata) ? template.metadata : {};
  const labels = isObj(meta.labels) ? meta.labels : {};
  if (Object.keys(selector).length > 0 && !Object.entries(selector).every(([k, v]) => labels[k] === v))
    errors.push(
      fieldError.invalid(
        'spec.template.metadata.labels',
        new GoValueText(goStringMap(meta.labels)),
        '`selector` does not match template `labels`',
      ),
    );
  const podSpec = isObj(template.spec) ? template.spec : {};
  const restartPolicy = podSpec.restartPolicy ?? 'Always';
  if (restartPolicy !== 'Always')
    errors.push(fieldError.notSupported('spec.template.spec.restartPolicy', restartPolicy, ['Always']));
  return errors;
}

/** `spec.selector` may not change (apps/v1 `ValidateImmutableField`). */
export function immutableSelectorErrors(obj: Obj, old: Obj): FieldError[] {
  const selector = isObj(obj.spec) ? obj.spec.selector : undefined;
  const before = isObj(old.spec) ? old.spec.selector : undefined;
  if (deepEqual(selector, before)) return [];
  return [
    fieldError.invalid(
      'spec.selector',
      new GoValueText(isObj(selector) ? goLabelSelector(selector) : 'null'),
      'field is immutable',
    ),
  ];
}
