/**
 * "What can I do": a verb × resource matrix for the kinds the explorer
 * shows, read from one SelfSubjectRulesReview for a namespace. Each cell
 * says allowed, allowed for some named objects only, or denied, and when
 * chosen explains itself: the rules of the review that grant it (the review
 * does not say which role they came from, so the cell can also ask the
 * server with a SelfSubjectAccessReview, whose reason names the binding and
 * role). The matrix is one tab stop; arrow keys, Home and End move within it
 * (a roving tabindex), so 400-odd cells do not swamp keyboard navigation.
 */

import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { DiscoveredGroupVersion } from '../../client/index';
import { useClient } from '../client-context';
import { ErrorNotice } from '../common/ErrorNotice';
import { cellFor, matrixVerbs, ruleText, type Cell, type ReviewedRule } from './rules';

export interface MatrixResource {
  group: string;
  resource: string;
  kind: string;
  namespaced: boolean;
  verbs: string[];
}

/** One row per group and resource the explorer lists (RBAC does not look at versions, so versions collapse). */
export function matrixResources(groupVersions: readonly DiscoveredGroupVersion[]): MatrixResource[] {
  const seen = new Map<string, MatrixResource>();
  for (const gv of groupVersions) {
    if (!gv.preferred) continue;
    for (const r of gv.resources) {
      if (!r.verbs.includes('list')) continue;
      const key = `${gv.group}/${r.name}`;
      if (!seen.has(key))
        seen.set(key, {
          group: gv.group,
          resource: r.name,
          kind: r.kind,
          namespaced: r.namespaced,
          verbs: r.verbs,
        });
    }
  }
  return [...seen.values()].sort(
    (a, b) => a.group.localeCompare(b.group) || a.resource.localeCompare(b.resource),
  );
}

const stateText: Record<Cell['state'], string> = {
  allowed: 'allowed',
  'some-names': 'only for named objects',
  denied: 'denied',
  'not-served': 'not served for this kind',
};

const stateMark: Record<Cell['state'], string> = {
  allowed: '✓',
  'some-names': '◐',
  denied: '✗',
  'not-served': '·',
};

interface Selected {
  row: number;
  col: number;
}

export function AccessMatrix({
  resources,
  rules,
  namespace,
  authorizationGroup,
}: {
  resources: MatrixResource[];
  rules: ReviewedRule[];
  namespace: string;
  /** `authorization.orch.io` or `authorization.k8s.io`, as discovery names it. */
  authorizationGroup: string;
}) {
  const [filter, setFilter] = useState('');
  const [focus, setFocus] = useState<Selected>({ row: 0, col: 0 });
  const [selected, setSelected] = useState<Selected | undefined>(undefined);
  const body = useRef<HTMLTableSectionElement>(null);
  const needle = filter.trim().toLowerCase();
  const rows = useMemo(
    () =>
      resources.filter(
        (r) =>
          needle === '' ||
          r.resource.includes(needle) ||
          r.kind.toLowerCase().includes(needle) ||
          r.group.includes(needle),
      ),
    [resources, needle],
  );
  const cells = useMemo(
    () => rows.map((r) => matrixVerbs.map((verb) => cellFor(rules, verb, r.group, r.resource, r.verbs))),
    [rows, rules],
  );
  const row = Math.min(focus.row, Math.max(rows.length - 1, 0));

  const moveTo = (next: Selected) => {
    const clamped = {
      row: Math.max(0, Math.min(rows.length - 1, next.row)),
      col: Math.max(0, Math.min(matrixVerbs.length - 1, next.col)),
    };
    setFocus(clamped);
    body.current?.querySelector<HTMLButtonElement>(`[data-cell="${clamped.row}-${clamped.col}"]`)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent) => {
    const moves: Record<string, Selected> = {
      ArrowUp: { row: row - 1, col: focus.col },
      ArrowDown: { row: row + 1, col: focus.col },
      ArrowLeft: { row, col: focus.col - 1 },
      ArrowRight: { row, col: focus.col + 1 },
      Home: { row, col: 0 },
      End: { row, col: matrixVerbs.length - 1 },
      PageUp: { row: row - 10, col: focus.col },
      PageDown: { row: row + 10, col: focus.col },
    };
    const next = moves[event.key];
    if (next === undefined) return;
    event.preventDefault();
    moveTo(next);
  };

  const chosen = selected !== undefined ? rows[selected.row] : undefined;
  const chosenCell = selected !== undefined ? cells[selected.row]?.[selected.col] : undefined;
  const chosenVerb = selected !== undefined ? matrixVerbs[selected.col] : undefined;

  return (
    <div className="access-matrix">
      <div className="access-matrix-table">
        <label className="kind-filter">
          Filter kinds{' '}
          <input value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="e.g. config" />
        </label>
        <p className="muted access-legend">
          <span className="cell-allowed">✓ allowed</span> ·{' '}
          <span className="cell-some-names">◐ named objects only</span> ·{' '}
          <span className="cell-denied">✗ denied</span> · · not served. Arrow keys move; Enter explains a
          cell.
        </p>
        <div className="access-scroll">
          <table aria-label={`What you may do in namespace ${namespace}`}>
            <thead>
              <tr>
                <th scope="col">Resource</th>
                {matrixVerbs.map((v) => (
                  <th key={v} scope="col">
                    {v === 'deletecollection' ? (
                      <>
                        delete
                        <wbr />
                        collection
                      </>
                    ) : (
                      v
                    )}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody ref={body} onKeyDown={onKeyDown}>
              {rows.map((r, i) => (
                <tr key={`${r.group}/${r.resource}`}>
                  <th scope="row">
                    {r.resource}
                    {r.group !== '' || !r.namespaced ? (
                      <span className="muted">
                        {' '}
                        {[r.group, r.namespaced ? '' : 'cluster-scoped'].filter((t) => t !== '').join(' · ')}
                      </span>
                    ) : null}
                  </th>
                  {matrixVerbs.map((verb, j) => {
                    const cell = cells[i]?.[j] ?? { state: 'denied', rules: [] };
                    const isSelected = selected?.row === i && selected.col === j;
                    return (
                      <td key={verb} className={`cell-${cell.state}`}>
                        <button
                          type="button"
                          className="matrix-cell"
                          data-cell={`${i}-${j}`}
                          data-state={cell.state}
                          tabIndex={row === i && focus.col === j ? 0 : -1}
                          aria-pressed={isSelected}
                          aria-label={`${verb} ${r.resource}: ${stateText[cell.state]}`}
                          onFocus={() => setFocus({ row: i, col: j })}
                          onClick={() => setSelected({ row: i, col: j })}
                        >
                          {stateMark[cell.state]}
                        </button>
                      </td>
                    );
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
      <aside className="access-cell-detail" aria-live="polite" aria-label="Why this cell">
        {chosen !== undefined && chosenCell !== undefined && chosenVerb !== undefined ? (
          <CellDetail
            key={`${chosen.group}/${chosen.resource}/${chosenVerb}/${namespace}`}
            resource={chosen}
            verb={chosenVerb}
            cell={chosenCell}
            rules={rules}
            namespace={namespace}
            authorizationGroup={authorizationGroup}
          />
        ) : (
          <p className="muted">Choose a cell to see which rule grants it.</p>
        )}
      </aside>
    </div>
  );
}

interface AccessReviewStatus {
  allowed?: boolean;
  denied?: boolean;
  reason?: string;
  evaluationError?: string;
}

function CellDetail({
  resource,
  verb,
  cell,
  rules,
  namespace,
  authorizationGroup,
}: {
  resource: MatrixResource;
  verb: string;
  cell: Cell;
  rules: ReviewedRule[];
  namespace: string;
  authorizationGroup: string;
}) {
  const client = useClient();
  const [review, setReview] = useState<{ status?: AccessReviewStatus; error?: unknown; busy: boolean }>({
    busy: false,
  });
  const where = resource.namespaced ? `in namespace ${namespace}` : 'cluster-wide';

  async function ask() {
    setReview({ busy: true });
    try {
      const answer = await client.send<{ status?: AccessReviewStatus }>(
        'POST',
        `/apis/${authorizationGroup}/v1/selfsubjectaccessreviews`,
        {
          body: {
            apiVersion: `${authorizationGroup}/v1`,
            kind: 'SelfSubjectAccessReview',
            spec: {
              resourceAttributes: {
                verb,
                group: resource.group,
                resource: resource.resource,
                ...(resource.namespaced ? { namespace } : {}),
              },
            },
          },
        },
      );
      setReview({ busy: false, ...(answer.body.status !== undefined ? { status: answer.body.status } : {}) });
    } catch (error) {
      setReview({ busy: false, error });
    }
  }

  return (
    <div className="cell-detail">
      <h3>
        <code>{verb}</code> {resource.resource} {where}
      </h3>
      <p className={`cell-verdict cell-${cell.state}`}>
        <strong>{stateText[cell.state]}</strong>
      </p>
      {cell.state === 'allowed' || cell.state === 'some-names' ? (
        <>
          <p>Granted by {cell.rules.length === 1 ? 'this rule' : 'these rules'} of the review:</p>
          <ul className="access-rules">
            {cell.rules.map((i) => {
              const rule = rules[i];
              return rule === undefined ? null : (
                <li key={i}>
                  <code>{ruleText(rule)}</code>
                </li>
              );
            })}
          </ul>
        </>
      ) : cell.state === 'denied' ? (
        <p>
          No rule you hold grants it. Trying it answers 403, and the explanation under the error names the
          rule that is missing and offers the grant.
        </p>
      ) : (
        <p>Discovery does not list this verb for {resource.resource}, so no permission can make it work.</p>
      )}
      {!resource.namespaced ? (
        <p className="muted">
          {resource.resource} is cluster-scoped: only ClusterRoleBindings grant it, while the review also
          lists rules from RoleBindings in {namespace}.
        </p>
      ) : null}
      {cell.state !== 'not-served' ? (
        <p>
          <button type="button" className="secondary" onClick={() => void ask()} disabled={review.busy}>
            Ask the server (SelfSubjectAccessReview)
          </button>
        </p>
      ) : null}
      {review.status !== undefined ? (
        <p role="status" data-testid="access-review">
          The server says <strong>{review.status.allowed === true ? 'allowed' : 'not allowed'}</strong>
          {review.status.reason !== undefined && review.status.reason !== ''
            ? `: ${review.status.reason}`
            : '.'}
          {review.status.reason === undefined && review.status.allowed === true
            ? ' (no reason given: a privileged group such as system:masters bypasses RBAC)'
            : ''}
        </p>
      ) : null}
      {review.error !== undefined ? (
        <ErrorNotice title="The access review failed" error={review.error} />
      ) : null}
    </div>
  );
}
