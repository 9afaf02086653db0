/** CertificateSigningRequest: the approval subresource (the status subresource is the generic one). */

import type { KindRegistration } from '../../types';
import { approvalStorage } from './approval';

export const certificateSigningRequest: KindRegistration = {
  subresources: { approval: approvalStorage },
};
