/**
 * rbac/v1 defaults: a binding's roleRef and its User and Group subjects
 * belong to the RBAC group unless they name one (ServiceAccount subjects
 * belong to the core group).
 */

import { child, type Defaulter, type Obj } from './helpers';

const binding: Defaulter = (obj, ctx) => {
  const roleRef = child(obj, 'roleRef');
  if (roleRef.apiGroup === undefined || roleRef.apiGroup === null || roleRef.apiGroup === '')
    roleRef.apiGroup = ctx.profile.suffixed('rbac.authorization');
};

const subject: Defaulter = (s: Obj, ctx) => {
  if (s.apiGroup !== undefined && s.apiGroup !== null && s.apiGroup !== '') return;
  if (s.kind === 'ServiceAccount') s.apiGroup = '';
  else if (s.kind === 'User' || s.kind === 'Group') s.apiGroup = ctx.profile.suffixed('rbac.authorization');
};

export const rbacDefaults: Record<string, Defaulter> = {
  'api.rbac.v1.RoleBinding': binding,
  'api.rbac.v1.ClusterRoleBinding': binding,
  'api.rbac.v1.Subject': subject,
};
