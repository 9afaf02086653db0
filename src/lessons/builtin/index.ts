/**
 * The built-in course, in order: each lesson is one file beside this one.
 * The `#/learn` page groups them by `part`.
 */

import type { LessonDocument } from '../format';
import { apiShape } from './api-shape';
import { conflicts } from './conflicts';
import { formats } from './formats';
import { objectsLabels } from './objects-labels';
import { welcome } from './welcome';

export const builtinLessons: readonly LessonDocument[] = [welcome, apiShape, objectsLabels, formats, conflicts];
