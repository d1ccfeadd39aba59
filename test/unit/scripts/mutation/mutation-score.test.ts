import { describe, expect, it } from 'vitest';
import {
  type EquivalentMutant,
  type ScoredMutant,
  scoreMutants,
} from '../../../../scripts/mutation/mutation-score.js';

const mutant = (over: Partial<ScoredMutant>): ScoredMutant => ({
  file: 'a.ts',
  mutator: 'EqualityOperator',
  original: 'a > b',
  replacement: 'a >= b',
  line: 10,
  column: 5,
  status: 'Killed',
  ...over,
});
const listing = (of: ScoredMutant, over: Partial<EquivalentMutant> = {}): EquivalentMutant => ({
  file: of.file,
  line: of.line,
  column: of.column,
  mutator: of.mutator,
  original: of.original,
  replacement: of.replacement,
  reason: 'changes nothing',
  ...over,
});

describe('scoreMutants', () => {
  it('scores killed over killed and survived, per file and in all, leaving listed equivalents and invalid mutants out', () => {
    const listedSurvivor = mutant({
      status: 'NoCoverage',
      line: 20,
      original: 'x ?? y',
      replacement: 'x && y',
    });
    const mutants = [
      mutant({}),
      mutant({ status: 'Timeout' }),
      mutant({ status: 'Survived', line: 12 }),
      listedSurvivor,
      mutant({ status: 'CompileError' }),
      mutant({ file: 'b.ts', status: 'Survived' }),
    ];

    const score = scoreMutants(mutants, [listing(listedSurvivor)]);

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

  it('keeps a listed mutant that timed out as equivalent, not killed, and its listing not stale', () => {
    const timedOut = mutant({ status: 'Timeout', line: 30 });

    const score = scoreMutants([mutant({}), timedOut], [listing(timedOut)]);

    expect(score.total).toMatchObject({ killed: 1, survived: 0, equivalent: 1, score: 100 });
    expect(score.stale).toEqual([]);
  });

  it('explains only the mutant at the listed position: a twin elsewhere stays a survivor, a moved listing is stale', () => {
    const listed = mutant({ status: 'Survived', line: 5 });
    const twin = mutant({ status: 'Survived', line: 40 });
    const moved = listing(mutant({ line: 7 }));
    const killed = mutant({ file: 'c.ts', line: 1 });

    const score = scoreMutants([listed, twin, killed], [listing(listed), moved, listing(killed)]);

    expect(score.unexplained).toEqual([twin]);
    expect(score.stale).toEqual([moved, listing(killed)]);
  });

  it('counts a survivor as killed by a hand edit only when that edit was caught', () => {
    const misreported = mutant({ status: 'Survived', original: "'base64url'", replacement: '""' });
    const listed = listing(misreported, { killedByHandEdit: 'token: an unknown encoding' });

    const verified = scoreMutants(
      [misreported, mutant({})],
      [listed],
      new Set(['token: an unknown encoding']),
    );
    const unverified = scoreMutants([misreported, mutant({})], [listed]);

    expect(verified.total).toMatchObject({ killed: 2, survived: 0, equivalent: 0, score: 100 });
    expect(verified.unexplained).toEqual([]);
    expect(unverified.total).toMatchObject({ killed: 1, survived: 1, score: 50 });
    expect(unverified.stale).toEqual([listed]);
  });
});
