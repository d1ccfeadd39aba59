import type { Locator, Page, Response } from 'playwright-core';

/** A comment list request of either client: `/api/comment?path=...` (v3) or `/comment?path=...` (v2). */
function isListResponse(response: Response): boolean {
  const url = new URL(response.url());
  return /^(?:\/api)?\/comment$/.test(url.pathname) && url.searchParams.has('path');
}

/**
 * The widget's read of its reaction counters: `GET /api/article?path=...&type=reaction0,...` (v3) or
 * `/article?...` (v2), sent when it mounts.
 */
function isReactionCountsResponse(response: Response): boolean {
  const url = new URL(response.url());
  return (
    response.request().method() === 'GET' &&
    /^(?:\/api)?\/article$/.test(url.pathname) &&
    (url.searchParams.get('type') ?? '').includes('reaction')
  );
}

/** What both clients render, reached the way a reader would: by their visible controls. */
export class WidgetPage {
  constructor(readonly page: Page) {}

  /** The main comment box (reply boxes open inside cards). */
  get mainBox(): Locator {
    return this.page.locator('[data-waline] > .wl-comment');
  }

  /** Root comment cards, in display order. */
  get roots(): Locator {
    return this.page.locator('.wl-cards > .wl-card-item');
  }

  /** The text of each root comment, without its replies, in display order. */
  async rootTexts(): Promise<string[]> {
    const texts = await this.page
      .locator('.wl-cards > .wl-card-item > .wl-card > .wl-content')
      .allInnerTexts();
    return texts.map((text) => text.trim());
  }

  /** The card (root or reply) whose own content contains `text`. */
  card(text: string): Locator {
    return this.page
      .locator('.wl-card-item')
      .filter({ has: this.page.locator(':scope > .wl-card > .wl-content', { hasText: text }) });
  }

  /** The replies shown under a root card. */
  replies(root: Locator): Locator {
    return root.locator(':scope > .wl-card > .wl-quote > .wl-card-item');
  }

  /** The number in the "N Comments" header, or '' when the widget shows none. */
  async count(): Promise<string> {
    const number = this.page.locator('.wl-count .wl-num');
    return (await number.count()) === 0 ? '' : (await number.innerText()).trim();
  }

  /** The like count shown on a card. */
  async likes(card: Locator): Promise<string> {
    return (await card.locator(':scope > .wl-card .wl-like').innerText()).trim();
  }

  /**
   * Runs `action` (a goto or a reload) and resolves once the widget's comment list has arrived and, with
   * `reactions`, its reaction counts too. A reaction clicked before those arrive can show twice: both
   * clients add 1 to the count they show when the vote is answered, so a count read after the vote was
   * stored (1) and answered before it becomes 2 on screen, though the server counted one.
   */
  async load(action: () => Promise<unknown>, { reactions = false } = {}): Promise<void> {
    const listed = this.page.waitForResponse(isListResponse);
    const counted = reactions ? this.page.waitForResponse(isReactionCountsResponse) : undefined;
    await action();
    await Promise.all([listed, counted]);
  }

  /** Reloads the page and waits for the comment list. */
  reload(): Promise<void> {
    return this.load(() => this.page.reload());
  }

  /** Types a comment into the main box and submits it, resolving once the server has answered. */
  post(nick: string, text: string): Promise<void> {
    return this.submit(this.mainBox, nick, text);
  }

  /** Opens the reply box of `card`, submits `text` as `nick`, and resolves once the server has answered. */
  async reply(card: Locator, nick: string, text: string): Promise<void> {
    await card.locator(':scope > .wl-card .wl-reply').click();
    await this.submit(card.locator('.wl-reply-wrapper .wl-comment'), nick, text);
  }

  /** Clicks the like button of `card` and resolves once the server has answered. */
  async toggleLike(card: Locator): Promise<void> {
    await this.answered('PUT', () => card.locator(':scope > .wl-card .wl-like').click());
  }

  /** Clicks a sort tab (Latest, Oldest, Hottest) and waits for the list it asks for. */
  async sortBy(tab: 'Latest' | 'Oldest' | 'Hottest'): Promise<void> {
    await this.load(() => this.page.locator('.wl-sort li', { hasText: tab }).click());
  }

  /** Clicks "Load More" and waits for the next page. */
  async loadMore(): Promise<void> {
    await this.load(() => this.loadMoreButton.click());
  }

  /** The "Load More" button, present while there are more pages. */
  get loadMoreButton(): Locator {
    return this.page.locator('.wl-operation button', { hasText: /load more/i });
  }

  /** The reaction items, in order. */
  get reactions(): Locator {
    return this.page.locator('.wl-reaction-item');
  }

  /** Clicks reaction `index` and resolves once the server has counted it. */
  async react(index: number): Promise<void> {
    await this.answered('POST', () => this.reactions.nth(index).click());
  }

  private async submit(box: Locator, nick: string, text: string): Promise<void> {
    await box.locator('.wl-nick').fill(nick);
    await box.locator('.wl-editor').fill(text);
    await this.answered('POST', () => box.locator('.wl-btn.primary').click());
  }

  /** Runs `action` and waits for the API request with `method` it causes to be answered. */
  private async answered(method: 'POST' | 'PUT', action: () => Promise<void>): Promise<void> {
    const answered = this.page.waitForResponse(
      (response) => response.request().method() === method && !response.url().includes('__test__'),
    );
    await action();
    const response = await answered;
    if (!response.ok()) throw new Error(`${method} ${response.url()} answered ${response.status()}`);
  }
}
