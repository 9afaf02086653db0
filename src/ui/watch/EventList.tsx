/**
 * The raw event stream as a table: arrival time, type, resourceVersion,
 * object, and notes for requests, relists and stream ends. New lines are
 * appended at the bottom and the list follows them unless the user has
 * scrolled up; rows have a fixed height, so nothing above moves.
 */

import { useEffect, useRef } from 'react';
import { formatClock } from '../lib/age';
import type { InspectorLine } from './useWatchSession';

interface Props {
  lines: readonly InspectorLine[];
  selected: number | undefined;
  onSelect: (seq: number) => void;
}

const shownAtMost = 500;

export function EventList({ lines, selected, onSelect }: Props) {
  const scroller = useRef<HTMLDivElement>(null);
  const following = useRef(true);
  const shown = lines.length > shownAtMost ? lines.slice(lines.length - shownAtMost) : lines;

  useEffect(() => {
    const element = scroller.current;
    if (element !== null && following.current) element.scrollTop = element.scrollHeight;
  }, [shown]);

  return (
    <div
      className="event-list"
      ref={scroller}
      onScroll={(event) => {
        const el = event.currentTarget;
        following.current = el.scrollHeight - el.scrollTop - el.clientHeight < 40;
      }}
    >
      {lines.length > shown.length ? (
        <p className="muted">
          Showing the last {shownAtMost} of {lines.length} lines.
        </p>
      ) : null}
      <table className="events">
        <caption className="visually-hidden">Watch events</caption>
        <thead>
          <tr>
            <th scope="col">Time</th>
            <th scope="col">Type</th>
            <th scope="col">resourceVersion</th>
            <th scope="col">Object or note</th>
          </tr>
        </thead>
        <tbody>
          {shown.map((line) => (
            <tr
              key={line.seq}
              className={`event-${line.type.toLowerCase()}${line.object !== undefined ? ' selectable' : ''}`}
              aria-selected={line.seq === selected ? true : undefined}
              // The whole row opens the event for a pointer; the name's button stays the keyboard's way in.
              onClick={line.object !== undefined ? () => onSelect(line.seq) : undefined}
            >
              <td className="numeric">{formatClock(line.at)}</td>
              <td>
                <span className={`event-type type-${line.type.toLowerCase()}`}>{line.type}</span>
              </td>
              <td className="numeric">{line.resourceVersion ?? ''}</td>
              <td>
                {line.object !== undefined ? (
                  <button
                    type="button"
                    className="link-button"
                    title={line.text}
                    onClick={(event) => {
                      event.stopPropagation();
                      onSelect(line.seq);
                    }}
                  >
                    {line.type === 'BOOKMARK' || line.type === 'ERROR'
                      ? (line.text ?? line.type.toLowerCase())
                      : `${line.namespace === undefined ? '' : `${line.namespace}/`}${line.name ?? ''}`}
                  </button>
                ) : (
                  <span className="note" title={line.text}>
                    {line.text}
                  </span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
