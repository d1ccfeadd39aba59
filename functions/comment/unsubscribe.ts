import type { ApiRequest } from '../shared/http/request.js';
import type { Router } from '../shared/http/http-function.js';
import type { SuppressionScope } from '../shared/table/keys.js';
import type { OutboxRepository } from '../shared/table/outbox-repository.js';
import { isOneClickBody } from './one-click-body.js';
import { invalidLinkPage, siteLabel } from './pages/link-page.js';
import {
  type UnsubscribePageContext,
  unsubscribedPage,
  unsubscribeOfferPage,
  unsubscribeRefusedPage,
} from './pages/unsubscribe-page.js';
import { type ReadLink, requestLink } from './read-link.js';

/** What the unsubscribe routes take. */
export interface UnsubscribeDependencies {
  readonly readLink: ReadLink;
  readonly outbox: Pick<OutboxRepository, 'suppress'>;
  readonly now: () => number;
  /** `SITE_NAME` and `SITE_URL`, to name the site. */
  readonly site: { readonly name?: string; readonly url?: string };
}

/** The page context of a request whose link was read: its language, the site, the query a button posts. */
function pageContext(
  request: ApiRequest,
  link: { readonly query: Record<string, string> },
  site: UnsubscribeDependencies['site'],
): UnsubscribePageContext {
  return { lang: request.lang, site: siteLabel(site), query: link.query };
}

/**
 * `GET /api/notification/unsubscribe?token=`: the page of the link in a reader's mail. It says what the
 * link does and offers its choices as buttons (mute the thread the mail was about, when the link names
 * one; leave the site); it changes nothing itself, so a link scanner that opens it does no harm.
 */
export function createShowUnsubscribe({ readLink, site }: UnsubscribeDependencies): Router {
  return async (request) => {
    const link = await requestLink(readLink, request, 'unsubscribe');
    if (!link) return invalidLinkPage(request.lang);
    return unsubscribeOfferPage(pageContext(request, link, site), link.claims.rootId !== undefined);
  };
}

/**
 * `POST /api/notification/unsubscribe?token=[&scope=thread|site]`: records the suppression of the link's
 * address (its hash): `scope=thread` the thread it names, `scope=site` the whole site. With no scope, RFC
 * 8058's one-click body (`List-Unsubscribe=One-Click`, what a mail provider posts) leaves the site. No
 * sign-in and no cookie: the signed token is the authority, and a mail provider posts from anywhere
 * (cross-site.ts lets this route through). Recording again changes nothing, so it may be repeated.
 */
export function createUnsubscribe({ readLink, outbox, now, site }: UnsubscribeDependencies): Router {
  return async (request) => {
    const link = await requestLink(readLink, request, 'unsubscribe');
    if (!link) return invalidLinkPage(request.lang);
    const context = pageContext(request, link, site);
    const asked = request.query('scope');
    let scope: SuppressionScope;
    if (asked === 'thread') {
      if (link.claims.rootId === undefined) return unsubscribeRefusedPage(context, 'noThread');
      scope = { kind: 'thread', rootId: link.claims.rootId };
    } else if (
      asked === 'site' ||
      (asked === undefined && isOneClickBody(request.contentType, request.textBody?.() ?? ''))
    ) {
      scope = { kind: 'site' };
    } else {
      return unsubscribeRefusedPage(context, 'badScope');
    }
    await outbox.suppress(link.claims.addressHash, scope, 'unsubscribe', now());
    return unsubscribedPage(context, scope.kind);
  };
}
