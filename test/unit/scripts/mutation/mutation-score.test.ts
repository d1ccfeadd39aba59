import { describe, expect, it } from 'vitest';
import { type ScoredMutant, scoreMutants } from '../../../../scripts/mutation/mutation-score.js';

const mutant = (over: Partial<ScoredMutant>): ScoredMutant => ({
  file: 'a.ts',
  mutator: 'EqualityOperator',
  original: 'a > b',
  replacement: 'a >= b',
  line: 10,
  status: 'Killed',
  ...over,
});

describe('scoreMutants', () => {
  it('scores killed over killed and survived, per file and in all, leaving listed equivalents and invalid mutants out', () => {
    const mutants = [
      mutant({}),
      mutant({ status: 'Timeout' }),
      mutant({ status: 'Survived', line: 12 }),
      mutant({ status: 'NoCoverage', line: 20, original: 'x ?? y', replacement: 'x && y' }),
      mutant({ status: 'CompileError' }),
      mutant({ file: 'b.ts', status: 'Survived' }),
    ];
    const listed = {
      file: 'a.ts',
      line: 19,
      mutator: 'EqualityOperator',
      original: 'x ?? y',
      replacement: 'x && y',
      reason: 'y is never read',
    };

    const score = scoreMutants(mutants, [listed]);

    expect(score.files).toEqual([
      { file: 'a.ts', mutants: 5, killed: 2, survived: 1, equivalent: 1, score: (100 * 2) / 3 },
      { file: 'b.ts', mutants: 1, killed: 0, survived: 1, equivalent: 0, score: 0 },
    ]);
    expect(score.total).toMatchObject({ killed: 2, survived: 2, equivalent: 1, score: 50 });
    expect(score.unexplained.map((m) => [m.file, m.line])).toEqual([
      ['a.ts', 12],
      ['b.ts', 10],
    ]);
    expect(score.stale).toEqual([]);
  });

  it('matches one survivor per listing, the nearest line first, and reports listings that match none', () => {
    const twins = [mutant({ status: 'Survived', line: 5 }), mutant({ status: 'Survived', line: 40 })];
    const listing = { file: 'a.ts', mutator: 'EqualityOperator', original: 'a > b', replacement: 'a >= b' };
    const killedListing = { ...listing, file: 'c.ts', line: 1, reason: 'wrongly listed' };

    const score = scoreMutants(
      [...twins, mutant({ file: 'c.ts', line: 1 })],
      [{ ...listing, line: 38, reason: 'the second is equivalent' }, killedListing],
    );

    expect(score.unexplained.map((m) => m.line)).toEqual([5]);
    expect(score.stale).toEqual([killedListing]);
  });

  it('counts a survivor that a hand edit shows killed as killed, not as equivalent', () => {
    const misreported = mutant({ status: 'Survived', original: "'base64url'", replacement: '""' });

    const score = scoreMutants(
      [misreported, mutant({})],
      [
        {
          file: 'a.ts',
          line: 10,
          mutator: 'EqualityOperator',
          original: "'base64url'",
          replacement: '""',
          reason: 'the module fails to load',
          killedByHandEdit: 'token: unknown encoding',
        },
      ],
    );

    expect(score.total).toMatchObject({ killed: 2, survived: 0, equivalent: 0, score: 100 });
    expect(score.unexplained).toEqual([]);
  });
});
