/**
 * `/healthz`, `/livez` and `/readyz` as the real server's healthz handler
 * answers them: `ok` when every check passes; with `?verbose` one
 * `[+]<name> ok` line per check and `<endpoint> check passed`; `?exclude=`
 * (repeatable) skips a check (`[+]<name> excluded: ok`) and names the ones
 * that match nothing in a `warn: some health checks cannot be excluded`
 * line; any failing check answers 500 with every line (failures as
 * `[-]<name> failed: reason withheld`) and `<endpoint> check failed`. One
 * check alone at `/<endpoint>/<name>` (names may contain `/`) answers `ok`
 * or 500 `internal server error: <reason>`; an unknown name is the Go
 * mux's plain-text 404.
 */

import type { RequestContext } from '../context';
import type { HealthCheck, ServerContext } from '../server-context';
import { baseHeaders } from '../respond';

export type HealthEndpoint = 'healthz' | 'livez' | 'readyz';

export function isHealthEndpoint(name: string | undefined): name is HealthEndpoint {
  return name === 'healthz' || name === 'livez' || name === 'readyz';
}

/** Plain text, no sniffing, with the headers every response carries (Audit-Id, Cache-Control). */
function goText(ctx: RequestContext, status: number, text: string): Response {
  const headers = baseHeaders(ctx, 'text/plain; charset=utf-8');
  headers.set('X-Content-Type-Options', 'nosniff');
  return new Response(text, { status, headers });
}

/** Go's http.NotFound, what the real mux answers for a path it has no handler for. */
export function pageNotFound(ctx: RequestContext): Response {
  return goText(ctx, 404, '404 page not found\n');
}

const excludedMark = Symbol('excluded');

async function run(check: HealthCheck): Promise<string | undefined> {
  try {
    return await check.check();
  } catch (e) {
    return e instanceof Error ? e.message : String(e);
  }
}

/** Go's %q of a check name, the names joined by `,` as the real formatQuoted joins them. */
function quoted(names: readonly string[]): string {
  return names.map((n) => JSON.stringify(n)).join(',');
}

export async function handleHealth(
  server: ServerContext,
  ctx: RequestContext,
  endpoint: HealthEndpoint,
  checkName: string | undefined,
): Promise<Response> {
  const checks = server.healthChecks(endpoint);
  if (checkName !== undefined) {
    const check = checks.find((c) => c.name === checkName);
    if (check === undefined) return pageNotFound(ctx);
    const reason = await run(check);
    return reason === undefined
      ? goText(ctx, 200, 'ok')
      : goText(ctx, 500, `internal server error: ${reason}\n`);
  }
  const excluded = new Set(ctx.query.getAll('exclude'));
  const results = await Promise.all(
    checks.map(async (c) => (excluded.has(c.name) ? excludedMark : await run(c))),
  );
  let output = '';
  let failed = false;
  checks.forEach((c, i) => {
    const result = results[i];
    if (result === excludedMark) {
      excluded.delete(c.name);
      output += `[+]${c.name} excluded: ok\n`;
    } else if (result !== undefined) {
      failed = true;
      output += `[-]${c.name} failed: reason withheld\n`;
    } else output += `[+]${c.name} ok\n`;
  });
  if (excluded.size > 0)
    output += `warn: some health checks cannot be excluded: no matches for ${quoted([...excluded].sort())}\n`;
  if (failed) return goText(ctx, 500, `${output}${endpoint} check failed\n`);
  if (!ctx.query.has('verbose')) return goText(ctx, 200, 'ok');
  return goText(ctx, 200, `${output}${endpoint} check passed\n`);
}
