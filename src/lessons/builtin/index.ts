/**
 * The built-in course, in order: each lesson is one file beside this one.
 * The `#/learn` page groups them by `part`.
 */

import type { LessonDocument } from '../format';
import { admission } from './admission';
import { apply } from './apply';
import { authentication } from './authentication';
import { controllers } from './controllers';
import { crds } from './crds';
import { health } from './health';
import { rbacLesson } from './rbac';
import { serviceAccounts } from './service-accounts';
import { versions } from './versions';
import { apiShape } from './api-shape';
import { deletion } from './deletion';
import { paging } from './paging';
import { patches } from './patches';
import { validation } from './validation';
import { watch } from './watch';
import { celRules } from './cel-rules';
import { certificates } from './certificates';
import { bootstrapTokens } from './bootstrap-tokens';
import { webhooks } from './webhooks';
import { conflicts } from './conflicts';
import { formats } from './formats';
import { objectsLabels } from './objects-labels';
import { welcome } from './welcome';

export const builtinLessons: readonly LessonDocument[] = [
  welcome,
  apiShape,
  objectsLabels,
  formats,
  conflicts,
  patches,
  validation,
  apply,
  watch,
  paging,
  deletion,
  controllers,
  versions,
  crds,
  celRules,
  authentication,
  rbacLesson,
  serviceAccounts,
  certificates,
  bootstrapTokens,
  admission,
  webhooks,
  health,
];
