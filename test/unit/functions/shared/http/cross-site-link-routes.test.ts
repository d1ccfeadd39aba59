import { describe, expect, it } from 'vitest';
import { refuseCrossSiteWrite } from '../../../../../functions/shared/http/cross-site.js';
import { toApiRequest } from '../../../../../functions/shared/http/request.js';
import { buildEvent, type EventSpec } from '../../../../support/http-event.js';

const allowed = ['https://blog.example'];
const linkRoutes = ['POST /api/notification/unsubscribe'];

/** The status a refusal carries, or 'passes'. */
function verdict(spec: EventSpec, routes: readonly string[] = linkRoutes): number | 'passes' {
  try {
    refuseCrossSiteWrite(toApiRequest(buildEvent(spec)), allowed, routes);
    return 'passes';
  } catch (error) {
    return (error as { status: number }).status;
  }
}

/** A mail provider's one-click POST, from a page of another site. */
const oneClick: EventSpec = {
  method: 'POST',
  path: '/api/notification/unsubscribe',
  query: 'token=t',
  body: 'List-Unsubscribe=One-Click',
  contentType: 'application/x-www-form-urlencoded',
  headers: { origin: 'https://mail.example' },
};

describe('refuseCrossSiteWrite on the routes of mail links', () => {
  it('lets a form POST from another site through on a link route', () => {
    expect(verdict(oneClick)).toBe('passes');
    expect(verdict({ ...oneClick, contentType: 'multipart/form-data; boundary=x' })).toBe('passes');
  });

  it('still refuses the same request on a route that is not a link route', () => {
    expect(verdict(oneClick, [])).toBe(403);
    expect(verdict({ ...oneClick, headers: {} }, [])).toBe(415);
    expect(verdict({ ...oneClick, path: '/api/comment', query: '' })).toBe(403);
  });
});
