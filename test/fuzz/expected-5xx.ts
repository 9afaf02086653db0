/**
 * The 5xx answers the real v1.27 server gives too, which the fuzzer reports
 * apart from unexpected ones (docs/decisions/0013 lists each, with why it
 * stays): a server-state failure or a dial the sandbox can never make, not
 * bad input answered as a server error. Anything else 5xx is a defect.
 */

export interface ExpectedServerError {
  /** Short name in the fuzzer's report. */
  name: string;
  status: number;
  /** The Status message, as the real server words it. */
  message: RegExp;
  /** The request path it answers (method and path as the fuzzer describes them). */
  path: RegExp;
}

export const expectedServerErrors: readonly ExpectedServerError[] = [
  {
    name: 'componentstatuses/<unknown>: the real registry answers 500 "Component not found"',
    status: 500,
    message: /^Component not found: /,
    path: /\/componentstatuses\/[^/?]+/,
  },
  {
    name: 'nodes/<n>/proxy of a node without addresses: the real dialer answers 500',
    status: 500,
    message: /^no preferred addresses found; known addresses: /,
    path: /\/nodes\/[^/]+\/proxy|\/proxy\/nodes\//,
  },
  {
    name: 'services/<s>/proxy without endpoints: 503 "no endpoints available"',
    status: 503,
    message: /^no endpoints available for service /,
    path: /\/services\/[^/]+\/proxy|\/proxy\/.*services\//,
  },
  {
    name: 'apply of a configuration its types reject: the real field manager answers 500 "failed to create typed patch object"',
    status: 500,
    message: /^failed to create typed patch object /,
    path: /./,
  },
  {
    name: 'apply over stored fields its types reject (duplicate finalizers, list keys): 500 "failed to create manager for existing fields"',
    status: 500,
    message: /^failed to create manager for existing fields: /,
    path: /./,
  },
];

/** The expected class a 5xx belongs to, if any. */
export function expectedServerError(
  status: number,
  message: string,
  request: string,
): ExpectedServerError | undefined {
  return expectedServerErrors.find(
    (e) => e.status === status && e.message.test(message) && e.path.test(request),
  );
}
