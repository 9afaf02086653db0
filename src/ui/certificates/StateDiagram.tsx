/**
 * The life of a CertificateSigningRequest as a small diagram — pending,
 * then approved or denied, then issued or failed, and finally deleted by
 * the cleaner — with the states the request went through marked and the
 * one it is in now lit, so the learner sees it move as the watch reports
 * each change.
 */

import { csrStates, stateLabels, type CsrState } from './csr-state';

interface Box {
  x: number;
  y: number;
  w: number;
}

const boxHeight = 34;
const boxes: Record<CsrState, Box> = {
  pending: { x: 8, y: 58, w: 104 },
  approved: { x: 158, y: 12, w: 104 },
  denied: { x: 158, y: 104, w: 104 },
  issued: { x: 308, y: 12, w: 104 },
  failed: { x: 308, y: 104, w: 104 },
  collected: { x: 470, y: 58, w: 126 },
};

interface Edge {
  from: CsrState;
  to: CsrState;
  label: string;
  points: [number, number][];
  /** Where the label goes, and which end of it is there. */
  at: [number, number, 'start' | 'middle' | 'end'];
  dashed?: boolean;
}

// Laid out by hand: the two edges into garbage collection from the bottom row run under the boxes.
const edges: Edge[] = [
  {
    from: 'pending',
    to: 'approved',
    label: 'approve',
    points: [
      [112, 75],
      [158, 29],
    ],
    at: [124, 44, 'end'],
  },
  {
    from: 'pending',
    to: 'denied',
    label: 'deny',
    points: [
      [112, 75],
      [158, 121],
    ],
    at: [126, 114, 'end'],
  },
  {
    from: 'approved',
    to: 'issued',
    label: 'sign',
    points: [
      [262, 29],
      [308, 29],
    ],
    at: [285, 22, 'middle'],
  },
  {
    from: 'approved',
    to: 'failed',
    label: 'refuse',
    points: [
      [262, 36],
      [308, 114],
    ],
    at: [292, 78, 'start'],
  },
  {
    from: 'issued',
    to: 'collected',
    label: 'expiry · 1 h',
    points: [
      [412, 29],
      [470, 68],
    ],
    at: [444, 40, 'start'],
  },
  {
    from: 'failed',
    to: 'collected',
    label: '1 h',
    points: [
      [412, 121],
      [470, 82],
    ],
    at: [446, 112, 'start'],
  },
  {
    from: 'denied',
    to: 'collected',
    label: '1 h',
    points: [
      [210, 138],
      [210, 158],
      [520, 158],
      [520, 92],
    ],
    at: [365, 154, 'middle'],
  },
  {
    from: 'pending',
    to: 'collected',
    label: '24 h while pending',
    points: [
      [60, 92],
      [60, 178],
      [560, 178],
      [560, 92],
    ],
    at: [365, 174, 'middle'],
    dashed: true,
  },
];

export function StateDiagram({ path }: { path: readonly CsrState[] }) {
  const current = path[path.length - 1] ?? 'pending';
  const walked = (from: CsrState, to: CsrState) => {
    const i = path.indexOf(from);
    return i >= 0 && path[i + 1] === to;
  };
  const description = `Now ${stateLabels[current]}; went through ${path.map((s) => stateLabels[s]).join(' → ')}`;
  return (
    <figure className="csr-diagram" data-state={current}>
      <svg viewBox="0 0 604 190" role="img" aria-label={description}>
        <defs>
          <marker
            id="csr-arrow"
            viewBox="0 0 10 10"
            refX="9"
            refY="5"
            markerWidth="7"
            markerHeight="7"
            orient="auto"
          >
            <path d="M0,0 L10,5 L0,10 z" className="csr-arrowhead" />
          </marker>
        </defs>
        {edges.map((e) => {
          const done = walked(e.from, e.to);
          return (
            <g
              key={`${e.from}-${e.to}`}
              className={`csr-edge${done ? ' is-done' : ''}${e.dashed === true ? ' is-dashed' : ''}`}
            >
              <polyline points={e.points.map((p) => p.join(',')).join(' ')} markerEnd="url(#csr-arrow)" />
              <text x={e.at[0]} y={e.at[1]} textAnchor={e.at[2]}>
                {e.label}
              </text>
            </g>
          );
        })}
        {csrStates.map((state) => {
          const b = boxes[state];
          const cls = state === current ? 'is-current' : path.includes(state) ? 'is-done' : 'is-off';
          return (
            <g key={state} className={`csr-node ${cls}`} data-node={state}>
              <rect x={b.x} y={b.y} width={b.w} height={boxHeight} rx={6} />
              <text x={b.x + b.w / 2} y={b.y + boxHeight / 2 + 5} textAnchor="middle">
                {stateLabels[state]}
              </text>
            </g>
          );
        })}
      </svg>
      <figcaption data-testid="csr-state">
        Now <strong>{stateLabels[current]}</strong>
      </figcaption>
    </figure>
  );
}
