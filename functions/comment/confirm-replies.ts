import type { ApiRequest } from '../shared/http/request.js';
import type { Router } from '../shared/http/http-function.js';
import type { ReplyConfirmations } from '../shared/table/reply-confirmations.js';
import { type ConfirmPageContext, confirmedPage, confirmOfferPage } from './pages/confirm-page.js';
import { invalidLinkPage, siteLabel } from './pages/link-page.js';
import { type ReadLink, requestLink } from './read-link.js';

/** What the confirmation routes take. */
export interface ConfirmRepliesDependencies {
  readonly readLink: ReadLink;
  readonly confirmations: Pick<ReplyConfirmations, 'confirm' | 'releasePending'>;
  readonly now: () => number;
  /** `SITE_NAME` and `SITE_URL`, to name the site. */
  readonly site: { readonly name?: string; readonly url?: string };
}

function pageContext(
  request: ApiRequest,
  link: { readonly query: Record<string, string> },
  site: ConfirmRepliesDependencies['site'],
): ConfirmPageContext {
  return { lang: request.lang, site: siteLabel(site), query: link.query };
}

/**
 * `GET /api/notification/confirm?token=`: the page of the link in a confirmation mail (REPLY_MAIL=confirmed).
 * It says what the link does and offers one button; it changes nothing itself, so a link scanner that
 * opens it confirms nobody.
 */
export function createShowConfirmReplies({ readLink, site }: ConfirmRepliesDependencies): Router {
  return async (request) => {
    const link = await requestLink(readLink, request, 'confirm');
    if (!link) return invalidLinkPage(request.lang);
    return confirmOfferPage(pageContext(request, link, site));
  };
}

/**
 * `POST /api/notification/confirm?token=`: records that the link's address (its hash) takes reply mail, and
 * hands the reply notice its confirmation mail stood in for back to the sender, which sends it now (a reply
 * deleted or held meanwhile sends nothing). No sign-in: the signed token is the authority. Repeating it
 * changes nothing: the notice waits only once.
 */
export function createConfirmReplies({
  readLink,
  confirmations,
  now,
  site,
}: ConfirmRepliesDependencies): Router {
  return async (request) => {
    const link = await requestLink(readLink, request, 'confirm');
    if (!link) return invalidLinkPage(request.lang);
    await confirmations.confirm(link.claims.addressHash, now());
    await confirmations.releasePending(link.claims.eventId, now());
    return confirmedPage(pageContext(request, link, site));
  };
}
