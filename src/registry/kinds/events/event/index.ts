/** Event of the events group (`events.orch.io/v1`): its `note` is at most 1 KiB. */

import { validateEventNoteSize } from '../../../validation/size-limits';
import type { KindRegistration } from '../../types';

export const event: KindRegistration = { hooks: { validate: validateEventNoteSize } };
