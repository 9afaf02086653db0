/**
 * The Table of a custom resource, as the real server renders it from the
 * CRD's `additionalPrinterColumns` (or the default `Age` column): the Name
 * column first, then one column per printer column, each cell the first
 * value the column's JSONPath selects, converted by the column's type
 * (`string` printed as kubectl prints JSONPath results, `date` as an age,
 * numbers and booleans as JSON values); missing or mistyped values are
 * null cells.
 */

import type { CustomResourceFacts } from '../../registry/crd/facts';
import { findResults, parseJsonPath, type JsonPath } from '../../registry/crd/jsonpath';
import { goG } from '../../registry/crd/value-validation';
import type { TableColumn } from '../table';
import { humanDuration, nameColumn } from './format';
import type { Printer } from './printer';

function printString(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : goG(v);
  if (typeof v === 'boolean') return String(v);
  return JSON.stringify(v);
}

function cell(type: string, v: unknown, now: Date): unknown {
  if (v === null || v === undefined) return null;
  switch (type) {
    case 'string':
      return printString(v);
    case 'integer':
      return typeof v === 'number' ? Math.trunc(v) : null;
    case 'number':
      return typeof v === 'number' ? v : null;
    case 'boolean':
      return typeof v === 'boolean' ? v : null;
    case 'date': {
      if (typeof v !== 'string') return null;
      const t = Date.parse(v);
      return Number.isNaN(t) ? '<invalid>' : humanDuration(now.getTime() - t);
    }
    default:
      return null;
  }
}

const printers = new WeakMap<CustomResourceFacts, Printer>();

export function customPrinter(facts: CustomResourceFacts): Printer {
  const cached = printers.get(facts);
  if (cached !== undefined) return cached;
  const columns: TableColumn[] = [nameColumn];
  const paths: (JsonPath | undefined)[] = [];
  for (const c of facts.columns) {
    const jsonPath = c.jsonPath ?? '';
    columns.push({
      name: c.name ?? '',
      type: c.type ?? 'string',
      format: c.format ?? '',
      description:
        c.description !== undefined && c.description !== ''
          ? c.description
          : `Custom resource definition column (in JSONPath format): ${jsonPath}`,
      priority: c.priority ?? 0,
    });
    try {
      paths.push(parseJsonPath(jsonPath));
    } catch {
      paths.push(undefined);
    }
  }
  const printer: Printer = {
    columns,
    cells(obj, ctx) {
      const meta = (obj.metadata ?? {}) as { name?: string };
      const cells: unknown[] = [meta.name ?? ''];
      facts.columns.forEach((c, i) => {
        const path = paths[i];
        const results = path === undefined ? [] : findResults(path, obj);
        cells.push(results.length === 0 ? null : cell(c.type ?? 'string', results[0], ctx.now));
      });
      return cells;
    },
  };
  printers.set(facts, printer);
  return printer;
}
