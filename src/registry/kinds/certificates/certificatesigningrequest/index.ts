/**
 * CertificateSigningRequest: its strategy (the requester recorded on
 * create, an immutable request afterwards, the real validation) and its
 * `approval` and `status` subresources.
 */

import type { KindRegistration } from '../../types';
import { approvalStorage } from './approval';
import { statusStorage } from './status';
import { csrHooks } from './strategy';

export const certificateSigningRequest: KindRegistration = {
  hooks: csrHooks('update'),
  subresources: { approval: approvalStorage, status: statusStorage },
};
