/**
 * The behaviour-changing edits that left the 0.1.0 suite green (found by a review of that suite; see
 * docs/testing.md, "Mutation testing"), written against today's code: each must make at least one of its
 * tests fail. Where the code since 0.1.0 replaced what was edited (pageviews no longer go down; only
 * `application/json` is JSON), the edit breaks the replacement in the same way.
 */
export interface HandEdit {
  /** A short name, as the report prints it. */
  readonly name: string;
  /** What breaks in production if the edit ships. */
  readonly breaks: string;
  readonly file: string;
  /** Text that occurs exactly once in `file`... */
  readonly from: string;
  /** ...and what it becomes. */
  readonly to: string;
  /** The test files expected to catch it (run with `vitest run`). */
  readonly tests: readonly string[];
  /** The edit breaks loading the module: a test file that fails to load counts as catching it. */
  readonly failsToLoad?: boolean;
}

const tokenTests = ['test/unit/functions/shared/auth/token.test.ts'];
const renderTests = ['test/unit/functions/shared/domain/render-markdown.test.ts'];
const requestTests = [
  'test/unit/functions/shared/http/http-function.test.ts',
  'test/unit/functions/shared/http/cross-site.test.ts',
];
const deltaTests = ['test/unit/functions/shared/table/counter-deltas.test.ts'];
const mailTests = ['test/unit/functions/notify/channels/mail-channel.test.ts'];

/**
 * Every edit of the reference's list, in its order, then the two branches it found unexercised, and a
 * check it found that passed whatever the route table held.
 */
export const handEdits: readonly HandEdit[] = [
  {
    name: '/ui parses comment text as HTML',
    breaks: "stored XSS in the page that holds the administrator's token",
    file: 'functions/comment/pages/admin-api-script.ts',
    from: 'if (text !== undefined) node.textContent = text;',
    to: "if (text !== undefined) node.insertAdjacentHTML('beforeend', text);",
    tests: ['test/browser/moderation.test.ts'],
  },
  {
    name: 'pageviews go down again',
    breaks: "anyone can lower a page's views (`desc` on `time`, refused since 0.1.0)",
    file: 'functions/article/update-counter.ts',
    from: "if (action === 'desc' && !isReaction(type)) {",
    to: 'if (false) {',
    tests: ['test/integration/functions/article-api.test.ts'],
  },
  {
    name: 'withdrawing a reaction adds one',
    breaks: 'a reaction `desc` raises the count instead of withdrawing the voter’s own',
    file: 'functions/shared/table/vote-items.ts',
    from: "ExpressionAttributeValues: { ':minusOne': -1, ':zero': 0 },",
    to: "ExpressionAttributeValues: { ':minusOne': 1, ':zero': 0 },",
    tests: ['test/integration/functions/article-api.test.ts'],
  },
  {
    name: 'batch reads drop unprocessed keys',
    breaks: 'under throttling, counts and reading counters silently come back as 0',
    file: 'functions/shared/table/batch-get.ts',
    from: 'pending = output.UnprocessedKeys?.[tableName]?.Keys ?? [];',
    to: 'pending = [];',
    tests: ['test/unit/functions/shared/table/batch-get.test.ts'],
  },
  {
    name: 'bulk writes do not retry a throttled batch',
    breaks: 'an import aborts on the first ThrottlingException or 5xx',
    file: 'scripts/shared/storage/bulk-writer.ts',
    from: 'retryError: isRetryable,',
    to: 'retryError: () => false,',
    tests: ['test/unit/scripts/shared/storage/bulk-writer.test.ts'],
  },
  {
    name: 'a delete that lost a race answers 200',
    breaks: 'the administrator is told a comment was deleted when a concurrent change kept it',
    file: 'functions/comment/delete-comment.ts',
    from: "if ((await moderation.remove(target)) === 'conflict') {",
    to: 'if ((await moderation.remove(target)) === undefined) {',
    tests: ['test/integration/functions/moderation-atomic.test.ts'],
  },
  {
    name: 'an oversized edit reaches DynamoDB',
    breaks: 'an edit over the stored size fails in DynamoDB (500) instead of a 413',
    file: 'functions/comment/moderate-comment.ts',
    from: 'if (!fitsInOneItem(change.comment, html)) {',
    to: 'if (false) {',
    tests: ['test/integration/functions/moderation-atomic.test.ts'],
  },
  {
    name: 'token: a signature of the wrong length is checked',
    breaks: 'a truncated signature counts as signed with another key: every such request reads the key again',
    file: 'functions/shared/auth/token.ts',
    from: "if (token.split('.')[2]?.length !== signatureChars) return refused('malformed');",
    to: '',
    tests: tokenTests,
  },
  {
    name: 'token: a fourth segment is accepted',
    breaks: '`<valid token>.junk` signs in',
    file: 'functions/shared/auth/token.ts',
    from: 'await jwtVerify(token, ',
    to: "await jwtVerify(token.split('.').slice(0, 3).join('.'), ",
    tests: tokenTests,
  },
  {
    name: 'token: no size cap',
    breaks: 'arbitrarily long tokens are HMAC’d',
    file: 'functions/shared/auth/token.ts',
    from: ' || token.length > maxTokenChars',
    to: '',
    tests: tokenTests,
  },
  {
    name: 'token: claims not type-checked',
    breaks: 'a signed payload without `sub`, a version (or an email), or `exp` is accepted',
    file: 'functions/shared/auth/token.ts',
    from: "typeof sub !== 'string' || ver === undefined || typeof exp !== 'number'",
    to: 'false',
    tests: tokenTests,
  },
  {
    // Stryker reports a module that fails to load as surviving: its vitest runner counts a test file
    // that fails to import as passing. Here the failure shows.
    name: 'token: an unknown encoding',
    breaks: 'the token module fails to load: every request of the comment function fails',
    file: 'functions/shared/auth/token.ts',
    from: 'const encoder = new TextEncoder();',
    to: "const encoder = new TextDecoder('base64url');",
    tests: tokenTests,
    failsToLoad: true,
  },
  {
    name: 'token: valid at its expiry instant',
    breaks: 'the expiry boundary moves by one millisecond',
    file: 'functions/shared/auth/token.ts',
    from: 'currentDate: new Date(nowMs),',
    to: 'currentDate: new Date(nowMs - 1),',
    tests: tokenTests,
  },
  {
    name: 'token: not a standard JWT header',
    breaks: 'tokens stop being HS256 JWTs, and those issued before no longer verify',
    file: 'functions/shared/auth/token.ts',
    from: "const header = { alg: 'HS256', typ: 'JWT' } as const;",
    to: "const header = { alg: 'HS512', typ: 'JWT' } as const;",
    tests: tokenTests,
  },
  {
    name: 'token: Bearer parsed without anchors',
    breaks: '`xBearer a` and `Bearer a b` yield a token',
    file: 'functions/shared/auth/token.ts',
    from: '/^Bearer\\s+(\\S+)$/i',
    to: '/Bearer\\s+(\\S+)/i',
    tests: tokenTests,
  },
  {
    name: 'render: whitespace and controls count in a link',
    breaks: '` https://x` and `&#x01;https://x` links lose target and rel="nofollow noreferrer noopener ugc"',
    file: 'functions/shared/domain/render-markdown.ts',
    from: ".filter((char) => char > ' ')",
    to: '.filter(() => true)',
    tests: renderTests,
  },
  {
    name: 'render: one slash makes a link external',
    breaks: 'every site-relative link opens in a new tab with nofollow',
    file: 'functions/shared/domain/render-markdown.ts',
    from: '/^[/\\\\]{2}/',
    to: '/^[/\\\\]/',
    tests: renderTests,
  },
  {
    name: 'render: http images refused by the transform',
    breaks: '`![a](http://…)` images disappear',
    file: 'functions/shared/domain/render-markdown.ts',
    from: 'const HTTP_URL = /^https?:\\/\\//i;',
    to: 'const HTTP_URL = /^https:\\/\\//i;',
    tests: renderTests,
  },
  {
    name: 'render: http images refused by the schemes',
    breaks: '`![a](http://…)` images disappear',
    file: 'functions/shared/domain/render-markdown.ts',
    from: "allowedSchemesByTag: { img: ['http', 'https', 'data'] }",
    to: "allowedSchemesByTag: { img: ['https', 'data'] }",
    tests: renderTests,
  },
  {
    name: 'render: h2 to h6 not allowed',
    breaks: '`## Heading` loses its heading',
    file: 'functions/shared/domain/html-tags.ts',
    from: "['h1', 'h2', 'h3', 'h4', 'h5', 'h6']",
    to: "['h1']",
    tests: renderTests,
  },
  {
    name: 'render: language- class not anchored',
    breaks: '`class="xlanguage-js"` is kept',
    file: 'functions/shared/domain/render-markdown.ts',
    from: '/^language-[\\w+#.-]+$/',
    to: '/language-[\\w+#.-]+$/',
    tests: renderTests,
  },
  {
    name: 'render: <xmp> content kept',
    breaks: '`<xmp>` content is kept as text instead of being removed',
    file: 'functions/shared/domain/render-markdown.ts',
    from: "'noscript', 'xmp']",
    to: "'noscript']",
    tests: renderTests,
  },
  {
    name: 'request: any type naming application/json is JSON',
    breaks: '`text/plain; a=application/json`, which any page may send cross-site, passes as JSON',
    file: 'functions/shared/http/request.ts',
    from: '/^\\s*application\\/json\\s*(?:;|$)/i',
    to: '/application\\/json/i',
    tests: requestTests,
  },
  {
    name: 'request: a parameter makes application/json something else',
    breaks: '`application/json; charset=utf-8`, which clients send, gets a 415',
    file: 'functions/shared/http/request.ts',
    from: '/^\\s*application\\/json\\s*(?:;|$)/i',
    to: '/^\\s*application\\/json\\s*$/i',
    tests: requestTests,
  },
  {
    name: 'request: a body at the limit is refused',
    breaks: 'a body of exactly the limit gets a 413',
    file: 'functions/shared/http/request.ts',
    from: 'if (size > limits.bodyBytes) {',
    to: 'if (size >= limits.bodyBytes) {',
    tests: requestTests,
  },
  {
    name: 'request: malformed JSON names no field',
    breaks: 'the 400 for malformed JSON no longer names `body` in `details`',
    file: 'functions/shared/http/request.ts',
    from: "{ body: 'must be valid JSON' },",
    to: '{},',
    tests: requestTests,
  },
  {
    name: 'counters: a root moves `roots` the wrong way',
    breaks: 'the page roots counter drifts on every status change of a root',
    file: 'functions/shared/table/counter-deltas.ts',
    from: 'roots: a.page.roots + sign * b.page.roots,',
    to: 'roots: a.page.roots - sign * b.page.roots,',
    tests: deltaTests,
  },
  {
    name: 'counters: the SITE item without its entity',
    breaks: 'the SITE item can be created without its `entity` attribute',
    file: 'functions/shared/table/counter-deltas.ts',
    from: '{ entity: entities.siteCounters, [attributes.layout]: layoutVersion },',
    to: '{ [attributes.layout]: layoutVersion },',
    tests: deltaTests,
  },
  {
    name: 'request: base64 bodies not decoded',
    breaks: 'a body API Gateway sends in base64 is a 400',
    file: 'functions/shared/http/request.ts',
    from: "return event.isBase64Encoded ? Buffer.from(raw, 'base64').toString('utf8') : raw;",
    to: 'return raw;',
    tests: requestTests,
  },
  {
    name: 'request: a body without a content type is JSON',
    breaks: 'a cross-site `no-cors` POST (no preflight) reaches the routes',
    file: 'functions/shared/http/request.ts',
    from: 'return contentType !== undefined && /^',
    to: 'return contentType === undefined || /^',
    tests: requestTests,
  },
  {
    name: 'stack: a route dropped from the route table',
    breaks: 'DELETE /token no longer has a route of its own: it falls to $default and its 1 % throttle share',
    file: 'functions/comment/routes.ts',
    from: "  'DELETE /api/token',\n",
    to: '',
    tests: ['test/unit/lib/marginalia-stack.test.ts'],
  },
  {
    name: 'markdown: bare URLs not linked',
    breaks: 'a URL typed in a comment stays plain text, where Waline links it',
    file: 'functions/shared/domain/render-markdown.ts',
    from: 'linkify: true',
    to: 'linkify: false',
    tests: ['test/unit/functions/shared/domain/render-markdown.test.ts'],
  },
  {
    name: 'notify: a stored address list is mailed',
    breaks: 'a commenter who typed `a@x, b@y` as their address has every reply to them mailed to both',
    file: 'functions/notify/channels/mail-message.ts',
    from: 'if (!singleAddress.safeParse(notice.to).success) {',
    to: 'if (false) {',
    tests: mailTests,
  },
  {
    name: 'notify: a reply mail without its unsubscribe link',
    breaks: 'a reader told of a reply cannot stop the mails, and no List-Unsubscribe header is sent',
    file: 'functions/notify/channels/mail-message.ts',
    from: "if (notice.template === 'reply') {",
    to: 'if (false) {',
    tests: mailTests,
  },
  {
    name: 'notify: a reply to a spam comment mails its author',
    breaks: 'the address a spammer typed receives a mail for every reply to their held comment',
    file: 'functions/notify/rules.ts',
    from: "'a held parent': ({ context }: Situation) => context.parent?.status !== 'approved',",
    to: "'a held parent': () => false,",
    tests: ['test/unit/functions/notify/rules.test.ts'],
  },
  {
    name: 'link token: the purpose not checked',
    breaks: 'a signed token is read for any purpose its claims happen to fit',
    file: 'functions/shared/notify/link-token.ts',
    from: 'if (payload?.purpose !== purpose) return undefined;',
    to: 'if (payload === undefined) return undefined;',
    tests: ['test/unit/functions/shared/notify/link-token.test.ts'],
  },
];
