import { describe, expect, it } from 'vitest';
import { planAccounts } from '../../../../scripts/import/plan-accounts.js';
import { planImport } from '../../../../scripts/import/plan.js';
import { formatReport } from '../../../../scripts/import/report.js';
import type { ImportOutcome } from '../../../../scripts/import/run-import.js';

const source = {
  format: 'waline' as const,
  comments: [],
  counters: [],
  accounts: [
    {
      ref: 'Users[0]',
      sourceId: '1',
      email: 'a@example.com',
      displayName: 'A',
      link: '',
      avatar: '',
      label: '',
      type: 'guest' as const,
      state: 'active' as const,
      passwordHash: '',
      passwordDropped: false,
      totpDropped: true,
      oauthDropped: false,
      createdAt: 1,
    },
  ],
  skipped: [],
  notes: [],
};
const outcome: ImportOutcome = {
  imported: { approved: 0, waiting: 0, spam: 0 },
  accounts: { created: 1, alreadyThere: 2, matchedByAddress: 3 },
  withAccount: 4,
  authorsLinked: 5,
  alreadyThere: 0,
  skipped: [],
  readingPages: 0,
  readingChanged: 0,
  pagesRecounted: 0,
};

describe('formatReport with accounts', () => {
  it('counts the accounts created, found and matched, and the comments given their author', () => {
    const report = formatReport(planImport(source), outcome, { target: 't', dryRun: false });

    expect(report).toContain(
      'accounts created: 1; already in the table: 2; address already had an account (comments go to it): 3',
    );
    expect(report).toContain("comments written with their author's account: 4");
    expect(report).toContain("comments of an earlier import given their author's account: 5");
    expect(report).toContain(planAccounts('waline', source.accounts).notes[1]);
  });

  it('says what a dry run would create', () => {
    const report = formatReport(
      planImport(source),
      { ...outcome, accounts: { created: 1, alreadyThere: 0, matchedByAddress: 0 } },
      {
        target: 'no table',
        dryRun: true,
      },
    );

    expect(report).toContain('accounts to create: 1\n');
  });

  it('has no account line when the source has no users', () => {
    const report = formatReport(planImport({ ...source, accounts: [] }), outcome, {
      target: 't',
      dryRun: false,
    });

    expect(report).not.toContain('accounts');
  });
});
