/**
 * Text that may wrap at its word boundaries: camelCase humps, dots and
 * slashes get a `<wbr>`, so "CertificateSigningRequest" or
 * "flowcontrol.apiserver.orch.io" wrap in a narrow column instead of being
 * cut with an ellipsis. Accessible names and copied text are unchanged.
 */

import { Fragment } from 'react';

export function Breakable({ text }: { text: string }) {
  const parts = text.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[./])(?=.)/);
  return (
    <>
      {parts.map((part, index) => (
        <Fragment key={index}>
          {index > 0 ? <wbr /> : null}
          {part}
        </Fragment>
      ))}
    </>
  );
}
