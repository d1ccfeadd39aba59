import { describe, expect, it } from 'vitest';
import { planImport } from '../../../../scripts/import/plan.js';
import { formatReport } from '../../../../scripts/import/report.js';
import { runImport } from '../../../../scripts/import/run-import.js';
import type { ParsedSource, SourceComment, SourceCounter } from '../../../../scripts/import/source.js';

const comment = (sourceId: string, url: string, extra: Partial<SourceComment> = {}): SourceComment => ({
  ref: `record ${sourceId}`,
  sourceId,
  url,
  nick: `n${sourceId}`,
  mail: '',
  link: '',
  ua: '',
  ip: '',
  text: `text ${sourceId}`,
  status: 'approved',
  like: 0,
  sticky: false,
  insertedAt: 1_700_000_000_000 + Number(sourceId) * 1000,
  ...extra,
});
const counter = (rawUrl: string, counts: SourceCounter['counts'], url = rawUrl): SourceCounter => ({
  ref: `counter ${rawUrl}`,
  rawUrl,
  url,
  counts,
});
const source = (
  comments: SourceComment[],
  counters: SourceCounter[] = [],
  extra: Partial<ParsedSource> = {},
): ParsedSource => ({ format: 'twikoo', comments, counters, skipped: [], notes: [], ...extra });
/** A page split over `/a` and `/a/`, with a thread that crosses the two. */
const split = source(
  [comment('1', '/a'), comment('2', '/a/', { parentId: '1', rootId: '1' }), comment('3', '/a/')],
  [counter('/a', { time: 10 }), counter('/a/', { time: 4, reaction0: 2 })],
);

describe('planImport of pages split over several keys', () => {
  it('writes the page under its slash variant and keeps the thread when the rule is the default', () => {
    const plan = planImport(split);

    expect(plan.mergePaths).toBe('slash');
    expect(plan.comments.map((planned) => planned.url)).toEqual(['/a/', '/a/', '/a/']);
    const [root, reply] = plan.comments;
    expect(reply?.rid).toBe(root?.id);
    expect(reply?.item.pid).toBe(root?.id);
    expect(plan.repairs.size).toBe(0);
  });

  it('marks an imported approved reply as told: approving it again later mails nobody', () => {
    const plan = planImport(
      source([
        comment('1', '/a/'),
        comment('2', '/a/', { parentId: '1', rootId: '1' }),
        comment('3', '/a/', { parentId: '1', rootId: '1', status: 'waiting' }),
      ]),
    );

    expect(plan.comments.map((planned) => planned.item.replyNotified)).toEqual([undefined, true, undefined]);
  });

  it('adds up the counters of the variants when both were counted', () => {
    const plan = planImport(split);

    expect(Object.fromEntries(plan.readingCounts)).toEqual({ '/a/': { time: 14, reaction0: 2 } });
  });

  it('lists the merge with what each variant held', () => {
    const plan = planImport(split);

    expect(plan.merges).toEqual([
      {
        into: '/a/',
        variants: [
          { key: '/a', comments: 1, pageviews: 10, reactions: 0 },
          { key: '/a/', comments: 2, pageviews: 4, reactions: 2 },
        ],
      },
    ]);
  });

  it('writes the page under its bare variant when the rule is no-slash', () => {
    const plan = planImport(split, { mergePaths: 'no-slash' });

    expect(new Set(plan.comments.map((planned) => planned.url))).toEqual(new Set(['/a']));
    expect([...plan.readingCounts.keys()]).toEqual(['/a']);
  });

  it('leaves the variants apart and says so when the rule is none', () => {
    const plan = planImport(split, { mergePaths: 'none' });

    expect(plan.comments.map((planned) => planned.url)).toEqual(['/a', '/a/', '/a/']);
    // A reply is only kept under a parent of its own page.
    expect(plan.comments[1]?.rid).toBeUndefined();
    expect(plan.merges).toEqual([]);
    expect(plan.notes).toEqual([
      'pages left split over trailing-slash variants (--merge-paths none): 1 (/a)',
    ]);
  });

  it('merges raw and decoded forms of one page under the decoded one when the source had both', () => {
    const plan = planImport(
      source(
        [comment('1', '/中/', { rawUrl: '/%E4%B8%AD/' }), comment('2', '/中/')],
        [counter('/中/', { time: 2 }, '/%E4%B8%AD/'), counter('/%E4%B8%AD/', { time: 3 })],
      ),
    );

    expect(plan.comments.map((planned) => planned.url)).toEqual(['/中/', '/中/']);
    expect(Object.fromEntries(plan.readingCounts)).toEqual({ '/%E4%B8%AD/': { time: 5 } });
    expect(plan.merges).toEqual([
      {
        into: '/中/',
        variants: [
          { key: '/%E4%B8%AD/', comments: 1, pageviews: 3, reactions: 0 },
          { key: '/中/', comments: 1, pageviews: 2, reactions: 0 },
        ],
      },
    ]);
  });

  it('merges nothing when a page has one key and its counters are only encoded otherwise', () => {
    const plan = planImport(
      source([comment('1', '/bé/', { rawUrl: '/b%C3%A9/' })], [counter('/b%C3%A9/', { time: 3 })]),
    );

    expect(plan.merges).toEqual([]);
  });

  it('moves a page split only between its comments and its pageviews', () => {
    const plan = planImport(source([comment('1', '/c/')], [counter('/c', { time: 7 })]));

    expect(Object.fromEntries(plan.readingCounts)).toEqual({ '/c/': { time: 7 } });
    expect(plan.merges).toEqual([
      {
        into: '/c/',
        variants: [
          { key: '/c', comments: 0, pageviews: 7, reactions: 0 },
          { key: '/c/', comments: 1, pageviews: 0, reactions: 0 },
        ],
      },
    ]);
  });

  it('imports one copy when the same author posted the same text on both variants', () => {
    const plan = planImport(
      source([comment('1', '/d'), comment('2', '/d/', { nick: 'n1', text: 'text 1' })]),
    );

    expect(plan.comments).toHaveLength(1);
    expect(plan.skipped).toEqual([
      { ref: 'record 2', reason: 'exact duplicate of record 1 (same page, author and text)' },
    ]);
  });

  it('ignores a skipped record and an empty counter when it looks for split pages', () => {
    const plan = planImport(
      source(
        [comment('1', '/e/'), comment('2', '/e', { skip: 'deleted in the source' })],
        [counter('/e', {})],
      ),
    );

    expect(plan.comments.map((planned) => planned.url)).toEqual(['/e/']);
    expect(plan.merges).toEqual([]);
  });

  it('restores a Marginalia export under its own keys unless a rule is given', () => {
    const own = { ...split, format: 'waline' as const, ownExport: true };

    expect(planImport(own).mergePaths).toBe('none');
    expect(planImport(own).comments.map((planned) => planned.url)).toEqual(['/a', '/a/', '/a/']);
    expect(planImport(own, { mergePaths: 'slash' }).comments.every((planned) => planned.url === '/a/')).toBe(
      true,
    );
  });
});

describe('formatReport', () => {
  it('lists every merged page with its source keys when pages were merged', async () => {
    const plan = planImport(split);
    const outcome = await runImport(plan, undefined, () => ({ update: () => {}, finish: () => {} }));

    const report = formatReport(plan, outcome, { target: 'no table', dryRun: true });

    expect(report).toContain('  pages merged from several source keys (--merge-paths slash): 1');
    expect(report).toContain(
      '    /a/ <- /a (1 comment, 10 pageviews), /a/ (2 comments, 4 pageviews, 2 reactions)',
    );
  });
});
