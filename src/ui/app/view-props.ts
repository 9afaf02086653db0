/**
 * What the shell hands every view: the parameters of its route (kept while
 * the view is hidden, so it shows the same thing when the user returns) and
 * whether it is the one shown.
 */

export interface ViewProps {
  params: Record<string, string>;
  active: boolean;
}
