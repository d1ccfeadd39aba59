/**
 * From what a source holds to the exact items to write: skips with reasons, duplicates, threading
 * repair (any depth flattened to root + pid, dangling and deleted parents, cycles), deterministic
 * ids, reply links rewritten to the new ids, rendering, hashing, pages split over several keys and
 * their counters merged. Pure: no I/O.
 */
import type { CommentStatus, StoredComment } from '../../functions/shared/domain/comment.js';
import { submitBodySchema } from '../../functions/shared/domain/comment-schemas.js';
import type { CounterName } from '../../functions/shared/domain/counters.js';
import { contentHash, hashIp } from '../../functions/shared/domain/hashing.js';
import { importedCommentId } from './import-id.js';
import { fitsInOneItem } from '../../functions/shared/domain/item-size.js';
import { limits } from '../../functions/shared/domain/limits.js';
import { prismHighlighter } from '../../functions/shared/domain/highlight-code.js';
import { allMarkdownFeatures, renderMarkdown } from '../../functions/shared/domain/render-markdown.js';
import { texToMathml } from '../../functions/shared/domain/tex-to-mathml.js';
import { describeUserAgent } from '../../functions/shared/domain/user-agent.js';
import { replyNotifiedAttribute, toCommentItem } from '../../functions/shared/table/comment-item.js';
import { entities, keys } from '../../functions/shared/table/keys.js';
import { createMergeLedger, createPageKeys, type MergeRule, type PageMerge } from './page-keys.js';
import { planAccounts, type PlannedAccount } from './plan-accounts.js';
import type { ParsedSource, SourceComment } from './source.js';

/** One comment ready to write. */
export interface PlannedComment {
  readonly ref: string;
  readonly id: string;
  readonly url: string;
  /** The thread root, for a reply: with the status, it says where the comment is kept. */
  readonly rid?: string;
  readonly status: CommentStatus;
  readonly contentHash: string;
  readonly item: Record<string, unknown>;
  readonly duplicateMark: Record<string, unknown>;
  /** The source id of its author's account, when that account is imported: its `userId` is set as it runs. */
  readonly userSourceId?: string;
}

/** Everything an import writes, and what it could not. */
export interface ImportPlan {
  readonly format: string;
  /** The registered users to bring over as accounts, before the comments that name them. */
  readonly accounts: PlannedAccount[];
  readonly comments: PlannedComment[];
  /** Reading counters by the page key the widget asks for. */
  readonly readingCounts: Map<string, Partial<Record<CounterName, number>>>;
  readonly skipped: { ref: string; reason: string }[];
  /** Repairs made, by kind, with how many. */
  readonly repairs: Map<string, number>;
  /** The rule trailing-slash variants were merged by. */
  readonly mergePaths: MergeRule;
  /** Pages written under one key from several source keys, each with what every key held. */
  readonly merges: PageMerge[];
  readonly notes: string[];
}

/** Options of the plan. */
export interface PlanOptions {
  /** The target's IP-hash salt; without it no ipHash is stored. */
  readonly ipHashSalt?: string;
  /**
   * Where pages split over `/a` and `/a/` go (`--merge-paths`): `slash` by default, `none` for a
   * Marginalia export, which is restored as it was.
   */
  readonly mergePaths?: MergeRule;
}

/** The link rule of live comments: http(s) addresses (or bare hosts) only, no control characters. */
const linkRule = submitBodySchema.shape.link;
const fits = (value: string, max: number) => Array.from(value).length <= max;
const cut = (value: string, max: number) => Array.from(value).slice(0, max).join('');

/** A kept record with its fields as they will be stored and its duplicate fingerprint. */
type Cleaned = SourceComment & {
  rawUrl: string;
  insertedAt: number;
  fields: { nick: string; mail: string; link: string; ua: string };
  orig: string;
  hash: string;
};

/** Builds the plan of `source`. */
export function planImport(source: ParsedSource, options: PlanOptions = {}): ImportPlan {
  const skipped = [...source.skipped];
  const repairs = new Map<string, number>();
  const repaired = (kind: string, by = 1) => repairs.set(kind, (repairs.get(kind) ?? 0) + by);
  const notes = [...source.notes];
  const accountPlan = planAccounts(source.format, source.accounts ?? []);
  skipped.push(...accountPlan.skipped);
  for (const [kind, count] of accountPlan.repairs) repaired(kind, count);
  notes.push(...accountPlan.notes);
  const imported = new Set(accountPlan.accounts.map((planned) => planned.sourceId));

  // 0. Page keys: a page split over trailing-slash variants goes under the rule's one. What was
  //    written under nothing (skipped records, zero counters) does not split a page.
  const mergePaths = options.mergePaths ?? (source.ownExport ? 'none' : 'slash');
  const pages = createPageKeys(
    [
      ...source.comments.filter((comment) => !comment.skip).map((comment) => comment.url),
      ...source.counters.filter((counter) => Object.keys(counter.counts).length > 0).map((c) => c.url),
    ],
    mergePaths,
  );
  const ledger = createMergeLedger(pages);
  if (mergePaths === 'none' && pages.split.length > 0) {
    const shown = pages.split.slice(0, 3).join(', ') + (pages.split.length > 3 ? ', ...' : '');
    notes.push(
      `pages left split over trailing-slash variants (--merge-paths none): ${pages.split.length} (${shown})`,
    );
  }

  // 1. Which records can be imported at all. Every record stays in `graph`, so replies of a skipped
  //    one can move up to its nearest kept ancestor.
  const graph = new Map<string, SourceComment>();
  const candidates: (SourceComment & { rawUrl: string; insertedAt: number })[] = [];
  const ordered = source.comments
    .map((comment) => ({ ...comment, rawUrl: comment.rawUrl ?? comment.url, url: pages.keyOf(comment.url) }))
    .sort((a, b) => (a.insertedAt ?? 0) - (b.insertedAt ?? 0));
  for (const comment of ordered) {
    const skip = (reason: string) => skipped.push({ ref: comment.ref, reason });
    if (graph.has(comment.sourceId)) {
      skip(`id ${comment.sourceId} appears twice in the source; the first was kept`);
      continue;
    }
    graph.set(comment.sourceId, comment);
    const url = comment.url;
    const { insertedAt } = comment;
    if (comment.skip) skip(comment.skip);
    else if (insertedAt === undefined) skip('its time is missing or unreadable');
    else if (url === '') skip('it has no url');
    else if (!fits(url, limits.urlChars) || Buffer.byteLength(url) > limits.urlBytes)
      skip('its url is too long');
    else if (comment.text.trim() === '') skip('its text is empty');
    // No cap on characters: what the source showed is kept whole, as long as it fits one item (below).
    else candidates.push({ ...comment, insertedAt });
  }

  // Ids: the Marginalia id a Marginalia export carries, else one derived from the source id.
  const idOf = new Map<string, string>();
  for (const comment of candidates) {
    idOf.set(
      comment.sourceId,
      comment.ownId ?? importedCommentId(source.format, comment.sourceId, comment.insertedAt),
    );
  }
  const rewrite = (text: string, fixes: string[]) => {
    const swap = (whole: string, before: string, old: string, after: string) => {
      const id = idOf.get(old);
      if (!id || id === old) return whole;
      fixes.push('reply links rewritten to the new ids');
      return `${before}${id}${after}`;
    };
    return text.replace(/(href=["']#)([^"'\s]+)(["'])/g, swap).replace(/(\]\(#)([^)\s]+)(\))/g, swap);
  };

  // Fields are cleaned as they will be stored before duplicates are looked for: two records that
  // differ only by what cleaning removes are one comment with one duplicate mark.
  const kept = new Map<string, Cleaned>();
  const byHash = new Map<string, { ref: string; sourceId: string }>();
  for (const comment of candidates) {
    const fixes: string[] = [];
    const fields = {
      nick: comment.nick.trim(),
      mail: comment.mail.trim(),
      link: comment.link.trim(),
      ua: comment.ua,
    };
    const maxima = {
      nick: limits.nickChars,
      mail: limits.mailChars,
      link: limits.linkChars,
      ua: limits.userAgentChars,
    };
    for (const name of ['nick', 'mail', 'link', 'ua'] as const) {
      if (!fits(fields[name], maxima[name])) {
        fields[name] = cut(fields[name], maxima[name]);
        fixes.push(`${name} values cut to the limit`);
      }
    }
    if (!linkRule.safeParse(fields.link).success) {
      fields.link = '';
      fixes.push('links a visitor could not post (not http(s), or with control characters) dropped');
    }
    const orig = rewrite(comment.text, fixes);
    const hash = contentHash({ ...fields, url: comment.url, comment: orig });
    const first = byHash.get(hash);
    if (first) {
      skipped.push({
        ref: comment.ref,
        reason: `exact duplicate of ${first.ref} (same page, author and text)`,
      });
      // Links to the copy lead to the comment kept in its place.
      idOf.set(comment.sourceId, idOf.get(first.sourceId) as string);
      continue;
    }
    byHash.set(hash, { ref: comment.ref, sourceId: comment.sourceId });
    for (const fix of fixes) repaired(fix);
    kept.set(comment.sourceId, { ...comment, fields, orig, hash });
  }

  // 2. Threading: each kept reply hangs under its nearest kept ancestor on the same page; the thread
  //    root is the top of that chain. A missing parent falls back to the given root.
  const sourceParent = (comment: SourceComment): string | undefined => {
    if (
      comment.parentId !== undefined &&
      comment.parentId !== comment.sourceId &&
      graph.has(comment.parentId)
    ) {
      return comment.parentId;
    }
    if (comment.rootId !== undefined && comment.rootId !== comment.sourceId && graph.has(comment.rootId)) {
      return comment.rootId;
    }
    return undefined;
  };
  const parent = new Map<string, string | undefined>();
  for (const comment of kept.values()) {
    const seen = new Set([comment.sourceId]);
    let candidate = sourceParent(comment);
    while (candidate !== undefined && !seen.has(candidate)) {
      const ancestor = kept.get(candidate);
      if (ancestor && ancestor.url === comment.url) break;
      seen.add(candidate);
      candidate = sourceParent(graph.get(candidate) as SourceComment);
    }
    if (candidate !== undefined && seen.has(candidate)) candidate = undefined;
    parent.set(comment.sourceId, candidate);
    const hadParent = comment.parentId !== undefined || comment.rootId !== undefined;
    if (hadParent && candidate === undefined) repaired('replies whose parent is missing made roots');
    else if (candidate !== undefined && candidate !== comment.parentId) {
      repaired('replies re-attached to their nearest kept ancestor');
    }
  }
  const rootOf = new Map<string, string>();
  for (const comment of kept.values()) {
    const path = [comment.sourceId];
    let current = parent.get(comment.sourceId);
    while (current !== undefined) {
      if (path.includes(current)) {
        // A cycle (A answers B answers A): the comment where it closes becomes a root.
        parent.set(path[path.length - 1] as string, undefined);
        repaired('reply cycles broken');
        break;
      }
      path.push(current);
      current = parent.get(current);
    }
    rootOf.set(comment.sourceId, path[path.length - 1] as string);
  }

  // 3. The items.
  const comments: PlannedComment[] = [];
  for (const source_ of kept.values()) {
    const id = idOf.get(source_.sourceId) as string;
    const parentId = parent.get(source_.sourceId);
    const rootId = rootOf.get(source_.sourceId) as string;
    const { fields, orig, hash } = source_;
    // As the comment function renders with every MARKDOWN_* switch at its default.
    const html = renderMarkdown(orig, allMarkdownFeatures, texToMathml, prismHighlighter);
    if (!fitsInOneItem(orig, html)) {
      skipped.push({
        ref: source_.ref,
        reason: `larger than ${limits.storedCommentBytes} bytes once rendered`,
      });
      continue;
    }
    const ipHash =
      source_.ipHash ??
      (source_.ip && options.ipHashSalt ? hashIp(options.ipHashSalt, source_.ip.trim()) : '');
    const stored: StoredComment = {
      id,
      url: source_.url,
      ...(parentId !== undefined
        ? { pid: idOf.get(parentId) as string, rid: idOf.get(rootId) as string }
        : {}),
      ...fields,
      ipHash,
      ...describeUserAgent(fields.ua),
      orig,
      html,
      status: source_.status,
      like: source_.like,
      sticky: source_.sticky,
      insertedAt: source_.insertedAt,
    };
    const item = toCommentItem(stored, hash);
    // An approved reply the old system showed was answered long ago: approving it again after holding it
    // must not mail its parent's author now (the flag a live reply gets when its parent's author is told).
    if (stored.rid !== undefined && stored.status === 'approved') item[replyNotifiedAttribute] = true;
    if (!ipHash) delete item.ipHash;
    item.importedFrom = `${source.format}:${source_.sourceId}`;
    ledger.record('comments', source_.rawUrl, source_.url, 1);
    comments.push({
      ref: source_.ref,
      id,
      url: source_.url,
      ...(stored.rid === undefined ? {} : { rid: stored.rid }),
      status: source_.status,
      contentHash: hash,
      item,
      duplicateMark: { ...keys.duplicate(source_.url, hash), entity: entities.duplicate, of: id },
      // A comment whose user is not imported keeps the copy of the user's name, mail and link alone.
      ...(source_.userSourceId !== undefined && imported.has(source_.userSourceId)
        ? { userSourceId: source_.userSourceId }
        : {}),
    });
  }
  if (!options.ipHashSalt && source.comments.some((comment) => comment.ip)) {
    notes.push('no IP-hash salt for this table: IPs were dropped, no ipHash stored (--ip-hash-salt)');
  }

  // 4. Reading counters: copies of one raw key (a Valine race) take the max; different raw keys that
  //    land on one page key (encoded and decoded, or trailing-slash variants) were counted by
  //    different visits, so they add up.
  const perRaw = new Map<string, Map<string, Partial<Record<CounterName, number>>>>();
  for (const counter of source.counters) {
    const url = pages.keyOf(counter.url);
    if (url === '' || Buffer.byteLength(url) > limits.urlBytes) {
      skipped.push({
        ref: counter.ref,
        reason: url === '' ? 'counter row with an empty url' : 'counter url too long',
      });
      continue;
    }
    const raws = perRaw.get(url) ?? new Map<string, Partial<Record<CounterName, number>>>();
    perRaw.set(url, raws);
    const existing = raws.get(counter.rawUrl);
    if (existing && Object.keys(counter.counts).length > 0)
      repaired('duplicate counter rows merged (largest kept)');
    const merged = { ...existing };
    for (const [name, value] of Object.entries(counter.counts) as [CounterName, number][]) {
      merged[name] = Math.max(merged[name] ?? 0, value);
    }
    raws.set(counter.rawUrl, merged);
  }
  const readingCounts = new Map<string, Partial<Record<CounterName, number>>>();
  for (const [url, raws] of perRaw) {
    const total: Partial<Record<CounterName, number>> = {};
    for (const [raw, counts] of raws) {
      let reactions = 0;
      for (const [name, value] of Object.entries(counts) as [CounterName, number][]) {
        total[name] = (total[name] ?? 0) + value;
        if (name !== 'time') reactions += value;
      }
      ledger.record('pageviews', raw, url, counts.time ?? 0);
      ledger.record('reactions', raw, url, reactions);
    }
    if (Object.keys(total).length > 0) readingCounts.set(url, total);
  }
  return {
    format: source.format,
    accounts: accountPlan.accounts,
    comments,
    readingCounts,
    skipped,
    repairs,
    mergePaths,
    merges: ledger.merges(),
    notes,
  };
}
