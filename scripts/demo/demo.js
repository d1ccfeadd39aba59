// What the two demo pages share: the article they show, the widget options both clients accept, and the
// list of the site's recent comments.

/** The demo article's path: the v3 and the v2 page show the same thread, each through its own client. */
export const articlePath = '/posts/notes-in-the-margin';

/** What the server put into the page: the captcha's site key (`turnstileKey` or `recaptchaV3Key`), when set. */
const settings = JSON.parse(document.getElementById('demo-settings')?.textContent || '{}');

/**
 * Widget options for both clients. Everything comes from this server: no emoji presets (they live on a CDN),
 * no GIF search (Giphy), no image upload; only a captcha, when TURNSTILE_KEY or RECAPTCHA_V3_KEY is set, loads
 * its provider's script. Login opens this server's /ui/login (`npm run admin -- add` first).
 */
export function widgetOptions(extra = {}) {
  return {
    ...settings,
    el: '#waline',
    serverURL: location.origin,
    path: articlePath,
    lang: 'en',
    login: 'enable',
    emoji: false,
    search: false,
    imageUploader: false,
    // Counts this view into .waline-pageview-count and fills every .waline-comment-count, by data-path.
    pageview: true,
    comment: true,
    reaction: ['like', 'insightful', 'funny', 'favourite'].map((name) => `/demo/reaction-${name}.svg`),
    locale: {
      placeholder: 'Leave a note in the margin. Markdown works.',
      reactionTitle: 'How did this note land?',
      reaction0: 'Like',
      reaction1: 'Insightful',
      reaction2: 'Funny',
      reaction3: 'Favourite',
    },
    ...extra,
  };
}

/**
 * Fills `list` with the site's newest comments from `url`. The v3 client's own RecentComments widget is not
 * used: it expects a bare array, and the `/api` route answers with Waline's envelope (as Waline's server does),
 * so this reads either shape and builds the items with textContent.
 */
export async function showRecentComments(list, url) {
  try {
    const response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const json = await response.json();
    const comments = Array.isArray(json) ? json : json.data;
    list.replaceChildren(
      ...(comments.length > 0 ? comments.map(recentItem) : [note('No comments yet. Be the first.')]),
    );
  } catch {
    list.replaceChildren(note('The recent comments could not be loaded.'));
  }
}

function recentItem(comment) {
  const item = document.createElement('li');
  const avatar = document.createElement('img');
  avatar.src = comment.avatar;
  avatar.alt = '';
  const who = document.createElement('div');
  who.className = 'who';
  const nick = document.createElement('strong');
  nick.textContent = comment.nick || 'Anonymous';
  const when = document.createElement('time');
  when.dateTime = new Date(comment.time).toISOString();
  when.textContent = timeAgo(comment.time);
  who.append(nick, ' · ', when);
  const text = document.createElement(comment.url === articlePath ? 'a' : 'p');
  text.className = 'excerpt';
  text.textContent = excerpt(comment.comment);
  if (comment.url === articlePath) text.href = `#${comment.objectId}`;
  else text.title = comment.url;
  item.append(avatar, who, text);
  return item;
}

function note(message) {
  const item = document.createElement('li');
  item.className = 'note';
  item.textContent = message;
  return item;
}

/** The comment's text, shortened. The server's HTML is already sanitised; a parsed document is inert anyway. */
function excerpt(html) {
  const text = new DOMParser()
    .parseFromString(html, 'text/html')
    .body.textContent.replace(/\s+/g, ' ')
    .trim();
  return text.length > 90 ? `${text.slice(0, 89)}…` : text;
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

function timeAgo(time) {
  const seconds = Math.round((time - Date.now()) / 1000);
  const steps = [
    [60, 'second'],
    [60, 'minute'],
    [24, 'hour'],
    [30, 'day'],
    [12, 'month'],
  ];
  let value = seconds;
  for (const [size, unit] of steps) {
    if (Math.abs(value) < size) return relative.format(value, unit);
    value = Math.round(value / size);
  }
  return relative.format(value, 'year');
}
