/** Akismet's verdict; `unknown` when it could not be asked (timeout, error, odd answer). */
export type SpamVerdict = 'spam' | 'ham' | 'unknown';

/** What a spam check looks at. */
export interface SpamCheckInput {
  readonly ip: string;
  readonly userAgent: string;
  readonly url: string;
  readonly nick: string;
  readonly mail: string;
  readonly link: string;
  readonly text: string;
}

/** Asks a spam service about a comment. */
export type SpamCheck = (input: SpamCheckInput) => Promise<SpamVerdict>;

/**
 * Akismet's comment-check (https://akismet.com/developers/comment-check/), bounded by a timeout.
 * It never throws: a failure is `unknown`, and the caller holds the comment for moderation.
 */
export function createAkismetCheck(options: {
  key: string;
  siteUrl: string;
  timeoutMs?: number;
  endpoint?: string;
  fetch?: typeof fetch;
}): SpamCheck {
  const endpoint = options.endpoint ?? `https://${options.key}.rest.akismet.com/1.1/comment-check`;
  const send = options.fetch ?? fetch;
  const permalink = (url: string) => {
    try {
      return new URL(url, options.siteUrl).toString();
    } catch {
      // A page path that is no valid URL path ('//', 'http://a b') must not fail the comment.
      return options.siteUrl;
    }
  };
  return async (input) => {
    const form = new URLSearchParams({
      blog: options.siteUrl,
      user_ip: input.ip,
      user_agent: input.userAgent,
      permalink: permalink(input.url),
      comment_type: 'comment',
      comment_author: input.nick,
      comment_author_email: input.mail,
      comment_author_url: input.link,
      comment_content: input.text,
    });
    try {
      const response = await send(endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form,
        signal: AbortSignal.timeout(options.timeoutMs ?? 2000),
      });
      const answer = (await response.text()).trim();
      if (!response.ok) return 'unknown';
      return answer === 'true' ? 'spam' : answer === 'false' ? 'ham' : 'unknown';
    } catch {
      return 'unknown';
    }
  };
}
