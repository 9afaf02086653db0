/**
 * The confirmation after "Use as identity" (a certificate or a service
 * account token made in this tab): who the UI now acts as, who the server
 * should see, and what that identity may do in a namespace — from one
 * SelfSubjectRulesReview, so a refusal further down the page (the request
 * list it may not read) is expected rather than alarming.
 */

import { useClient } from '../client-context';
import { useAsync } from '../hooks/useAsync';
import { routeHref } from '../lib/route';
import { useActingAs, useIdentityStore, useIdentityVersion } from './IdentityContext';
import { actingLabel } from './IdentitySwitcher';
import { ruleText, type RulesReviewStatus } from './rules';

/** How many rules the notice lists before pointing at the full matrix. */
const shownRules = 4;

export function NowActingAs({
  authorizationGroup,
  namespace = 'default',
}: {
  authorizationGroup: string;
  namespace?: string;
}) {
  const client = useClient();
  const store = useIdentityStore();
  const acting = useActingAs();
  const version = useIdentityVersion();
  const made = acting !== undefined && store.saved().some((a) => a.name === acting.name);

  const review = useAsync(async () => {
    if (!made) return undefined;
    const answer = await client.send<{ status?: RulesReviewStatus }>(
      'POST',
      `/apis/${authorizationGroup}/v1/selfsubjectrulesreviews`,
      {
        body: {
          apiVersion: `${authorizationGroup}/v1`,
          kind: 'SelfSubjectRulesReview',
          spec: { namespace },
        },
      },
    );
    return answer.body.status ?? {};
  }, [version, made, authorizationGroup, namespace]);

  if (!made || acting === undefined) return null;
  const expected = acting.expected;
  const rules = review.value?.resourceRules ?? [];
  return (
    <section className="now-acting" role="status" aria-label="Now acting as">
      <p>
        <strong>You now act as {actingLabel(acting)}</strong>
        {expected !== undefined ? (
          <>
            : the server sees user <code>{expected.username}</code>
            {expected.groups.length > 0 ? <> in groups {expected.groups.join(', ')}</> : null}
          </>
        ) : null}
        . Every view sends its requests as this identity; switch back in the header.
      </p>
      <p>
        In namespace <code>{namespace}</code> it may:{' '}
        {review.loading && review.value === undefined ? (
          'asking the server…'
        ) : review.error !== undefined ? (
          'the server would not say (the SelfSubjectRulesReview failed).'
        ) : rules.length === 0 ? (
          'nothing.'
        ) : (
          <>
            {rules.slice(0, shownRules).map((rule, i) => (
              <span key={i}>
                {i > 0 ? '; ' : ''}
                <code>{ruleText(rule)}</code>
              </span>
            ))}
            {rules.length > shownRules ? ` and ${rules.length - shownRules} more rules` : ''}.
          </>
        )}{' '}
        A request it may not make is refused with a 403 that explains itself.{' '}
        <a href={routeHref('identity', namespace === 'default' ? {} : { ns: namespace })}>
          What can I do, cell by cell
        </a>
      </p>
    </section>
  );
}
