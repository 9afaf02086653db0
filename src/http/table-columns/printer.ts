/**
 * What a per-kind printer is: the Table columns of a kind (priority 1 marks
 * the extra `-o wide` columns) and how one object becomes a row. Rows
 * always carry every column, as the real server renders them; clients
 * choose which to show.
 */

import type { NamingProfile } from '../../machinery/naming';
import type { TableColumn } from '../table';
import type { Obj } from './format';

export interface RowCondition {
  type: string;
  status: string;
  reason: string;
  message: string;
}

export interface PrintContext {
  now: Date;
  profile: NamingProfile;
}

export interface Printer {
  columns: TableColumn[];
  cells(obj: Obj, c: PrintContext): unknown[];
  conditions?(obj: Obj): RowCondition[] | undefined;
}
