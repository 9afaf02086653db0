/**
 * Operations of subresources: `status`, `scale`, `approval` and the like
 * act on a body kind (their own or the parent's); `exec`, `attach`,
 * `portforward` and `proxy` are "connect" actions on an options kind;
 * `log` returns text.
 */

import type { SubresourceType } from '../../registry/resource-type';
import {
  patchParams,
  patchRef,
  pathParam,
  pretty,
  upperFirst,
  writeParams,
  type BodyRef,
  type Method,
  type OperationModel,
  type ParamModel,
  type PathModel,
} from './model';
import type { ResourceOperationsInput } from './operations';

/** What the resource's paths share with its subresources' paths. */
export interface SubContext {
  op: (
    method: Method,
    idVerb: string,
    action: string,
    rest: Partial<OperationModel> & Pick<OperationModel, 'responses'>,
  ) => OperationModel;
  prefix: string;
  ns: string;
  nsParams: ParamModel[];
  scope: string;
  patchTypes: string[];
}

export function subresourcePath(
  input: ResourceOperationsInput,
  sub: SubresourceType,
  c: SubContext,
): PathModel | undefined {
  const { rt } = input;
  const suffix = `${c.scope}${rt.kind}${upperFirst(sub.name)}`;
  const hasBody = sub.definition !== undefined;
  const ref: BodyRef = sub.definition !== undefined ? { definition: sub.definition } : { string: true };
  const gvk = { group: sub.group ?? rt.group, version: sub.version ?? rt.version, kind: sub.kind };
  // Subresources without a body kind (exec, attach, proxy, portforward) are "connect" actions on their options kind; log is text.
  const connect = !hasBody && sub.name !== 'log';
  const ok = (...codes: string[]) => [...codes.map((code) => ({ code, ref })), { code: '401' }];
  const ops: OperationModel[] = [];
  const add = (
    m: Method,
    idVerb: string,
    action: string,
    extra: Partial<OperationModel> & Pick<OperationModel, 'responses'>,
  ): void => {
    ops.push(
      c.op(m, connect ? `connect${upperFirst(m)}` : idVerb, connect ? 'connect' : action, {
        operationId: suffix,
        gvk,
        ...extra,
      }),
    );
  };
  const write = hasBody ? { params: writeParams, body: { ref, contentTypes: ['*/*'] } } : {};
  if (sub.verbs.has('get')) add('get', 'read', 'get', { responses: ok('200') });
  if (sub.verbs.has('create'))
    add('post', 'create', 'post', { ...write, responses: ok('200', '201', '202') });
  if (sub.verbs.has('update')) add('put', 'replace', 'put', { ...write, responses: ok('200', '201') });
  if (sub.verbs.has('patch'))
    add('patch', 'patch', 'patch', {
      ...(hasBody
        ? { params: patchParams, body: { ref: patchRef, contentTypes: c.patchTypes }, consumes: c.patchTypes }
        : {}),
      responses: ok('200', '201'),
    });
  if (sub.verbs.has('delete')) add('delete', 'delete', 'delete', { responses: ok('200') });
  if (ops.length === 0) return undefined;
  const params = [pathParam('name'), ...c.nsParams, ...(connect ? [] : [pretty])];
  return { path: `${c.prefix}${c.ns}/${rt.resource}/{name}/${sub.name}`, params, operations: ops };
}
