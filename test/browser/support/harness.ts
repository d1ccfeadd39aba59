import type { Page } from 'playwright-core';

/** The two Waline clients the local server ships: `@waline/client` 3.x and 2.x. */
export type ClientVersion = 'v3' | 'v2';

/** What a test page holds besides the comment widget. */
export interface HarnessOptions {
  /** The article path the widget, its reactions and its pageview use. */
  readonly path: string;
  readonly pageSize?: number;
  readonly commentSorting?: 'latest' | 'oldest' | 'hottest';
  /** Shows the demo's four reactions above the widget. */
  readonly reaction?: boolean;
  /** Paths that get a pageview counter and a comment counter each; `path` itself gets its views counted. */
  readonly counters?: readonly string[];
  /** Shows the widget's login button (sign-in through the server's /ui/login). */
  readonly login?: boolean;
  /** Shows the v3 widget's two feed links under the list (`noRss: false`); v2 has none. */
  readonly rss?: boolean;
}

/** The reaction icons the demo pages use, served by the local server. */
export const reactionIcons = ['like', 'insightful', 'funny', 'favourite'].map(
  (name) => `/demo/reaction-${name}.svg`,
);

/** Where a test page lives: on the server's own origin, so it is as close to the demo pages as can be. */
export const harnessPath = '/__test__/widget.html';

/**
 * A page with the real widget of `version`, loaded from the local server's /vendor files, configured to
 * reach nothing but the server (no emoji presets, GIF search, uploads, login or captcha).
 */
export function harnessHtml(version: ClientVersion, options: HarnessOptions): string {
  const widgetOptions = {
    el: '#waline',
    path: options.path,
    lang: 'en',
    login: options.login ? 'enable' : 'disable',
    emoji: false,
    search: false,
    imageUploader: false,
    ...(version === 'v3' && !options.rss ? { noRss: true } : {}),
    ...(options.pageSize ? { pageSize: options.pageSize } : {}),
    ...(options.commentSorting ? { commentSorting: options.commentSorting } : {}),
    ...(options.reaction ? { reaction: reactionIcons } : {}),
    ...(options.counters ? { pageview: true, comment: true } : {}),
  };
  // JSON is valid JavaScript; escaping `<` keeps a `</script>` in a value from closing the element.
  const json = JSON.stringify(widgetOptions).replace(/</g, '\\u003c');
  const counters = (options.counters ?? [])
    .map(
      (path) =>
        `<p data-counters="${escapeAttribute(path)}">` +
        `<span class="waline-pageview-count" data-path="${escapeAttribute(path)}"></span> views, ` +
        `<span class="waline-comment-count" data-path="${escapeAttribute(path)}"></span> comments</p>`,
    )
    .join('\n');
  const script =
    version === 'v3'
      ? `<script type="module">
  import { init } from '/vendor/waline-v3/waline.js';
  window.__waline = init({ ...${json}, serverURL: location.origin });
</script>`
      : `<script src="/vendor/waline-v2/waline.js"></script>
<script>
  window.__waline = Waline.init(Object.assign(${json}, { serverURL: location.origin }));
</script>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>widget ${version}</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/vendor/waline-${version}/waline.css">
</head>
<body>
${counters}
<div id="waline"></div>
${script}
</body>
</html>
`;
}

/** Serves the harness at `base + harnessPath` for this page (reloads included) and opens it. */
export async function openHarness(
  page: Page,
  base: string,
  version: ClientVersion,
  options: HarnessOptions,
): Promise<void> {
  const html = harnessHtml(version, options);
  await page.route(`${base}${harnessPath}`, (route) =>
    route.fulfill({ status: 200, contentType: 'text/html; charset=utf-8', body: html }),
  );
  await page.goto(`${base}${harnessPath}`);
}

function escapeAttribute(value: string): string {
  return value.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
}
