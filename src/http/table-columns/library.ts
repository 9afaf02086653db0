/**
 * The built-in kinds' table printers as a lazy module (see machinery/lazy-module.ts): the request pipeline loads
 * them when `Accept` asks for a Table (`as=Table`), the only way a request gets one.
 */

import { LazyModule } from '../../machinery/lazy-module';
import { parseAccept } from '../media-type';
import type * as TablePrinters from './table-printers.lazy';

export const tablePrinters = new LazyModule<typeof TablePrinters>(
  'table-printers',
  () => import('./table-printers.lazy'),
);

/** The request may be answered as a Table: an `Accept` entry names `as=Table`, parsed as negotiation parses it. */
export function acceptsTable(accept: string | null): boolean {
  // Most requests name no Table at all: parameter values keep their case, so no `Table` in the text means none.
  return (
    accept !== null && accept.includes('Table') && parseAccept(accept).some((m) => m.params.as === 'Table')
  );
}
