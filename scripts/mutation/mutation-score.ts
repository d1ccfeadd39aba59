/** A mutant as Stryker reports it, reduced to what the score needs. */
export interface ScoredMutant {
  /** Relative to the project root, with forward slashes. */
  readonly file: string;
  readonly mutator: string;
  readonly replacement: string;
  /** The source text the mutant replaces. */
  readonly original: string;
  /** 1-based, where the mutant starts. */
  readonly line: number;
  readonly column: number;
  readonly status: string;
}

/**
 * A survivor explained: equivalent (no test can kill it: it changes nothing observable), or misreported
 * (`killedByHandEdit`: the runner counts a module that fails to load as passing; the named hand edit
 * applies the same change and shows the tests fail).
 */
export interface EquivalentMutant {
  readonly file: string;
  /** Where the mutant starts, 1-based: a listing names one mutant exactly, so code that moves makes it stale. */
  readonly line: number;
  readonly column: number;
  readonly mutator: string;
  readonly original: string;
  readonly replacement: string;
  readonly reason: string;
  /** The name of the hand edit (hand-edits.ts) that shows this mutant killed. */
  readonly killedByHandEdit?: string;
}

/** The score of one file, or of all of them. */
export interface FileScore {
  readonly file: string;
  readonly mutants: number;
  readonly killed: number;
  readonly survived: number;
  readonly equivalent: number;
  /** Killed over mutants that are neither equivalent nor invalid (compile or runtime errors), in %. */
  readonly score: number;
}

export interface MutationScore {
  readonly files: readonly FileScore[];
  readonly total: FileScore;
  /** Mutants that lived and are not explained: each wants a test. */
  readonly unexplained: readonly ScoredMutant[];
  /**
   * Listings that explain no surviving mutant (it was killed, or the code moved), or that credit a hand
   * edit which did not run or was not caught: the list needs care.
   */
  readonly stale: readonly EquivalentMutant[];
}

const killedStatuses = new Set(['Killed', 'Timeout']);
const livedStatuses = new Set(['Survived', 'NoCoverage']);

const sameMutant = (mutant: ScoredMutant, listed: EquivalentMutant) =>
  mutant.file === listed.file &&
  mutant.line === listed.line &&
  mutant.column === listed.column &&
  mutant.mutator === listed.mutator &&
  mutant.replacement === listed.replacement &&
  mutant.original === listed.original;

/**
 * Scores `mutants` file by file. A surviving mutant counts as equivalent only when `equivalents` lists
 * it exactly (file, position, mutator, original and replacement text), and as killed by a hand edit only
 * when that edit is among `caughtHandEdits`.
 */
export function scoreMutants(
  mutants: readonly ScoredMutant[],
  equivalents: readonly EquivalentMutant[],
  caughtHandEdits: ReadonlySet<string> = new Set(),
): MutationScore {
  const lived = mutants.filter((mutant) => livedStatuses.has(mutant.status));
  // A listed mutant that timed out is still explained by its listing: on a loaded machine a slow test (a
  // fresh import of the renderer) can outlast Stryker's timeout, which says nothing of what it changes.
  const listable = mutants.filter(
    (mutant) => livedStatuses.has(mutant.status) || mutant.status === 'Timeout',
  );
  const equivalent = new Set<ScoredMutant>();
  const killedByHand = new Set<ScoredMutant>();
  const stale: EquivalentMutant[] = [];
  for (const listed of equivalents) {
    const match = listable.find((mutant) => sameMutant(mutant, listed));
    if (!match) stale.push(listed);
    else if (listed.killedByHandEdit === undefined) equivalent.add(match);
    else if (caughtHandEdits.has(listed.killedByHandEdit)) killedByHand.add(match);
    else stale.push(listed);
  }

  const score = (file: string, own: readonly ScoredMutant[]): FileScore => {
    const killed = own.filter(
      (m) => (killedStatuses.has(m.status) && !equivalent.has(m)) || killedByHand.has(m),
    ).length;
    const explained = own.filter((m) => equivalent.has(m)).length;
    const survived = own.filter(
      (m) => livedStatuses.has(m.status) && !equivalent.has(m) && !killedByHand.has(m),
    ).length;
    const counted = killed + survived;
    return {
      file,
      mutants: own.length,
      killed,
      survived,
      equivalent: explained,
      score: counted === 0 ? 100 : (100 * killed) / counted,
    };
  };
  const files = [...new Set(mutants.map((mutant) => mutant.file))].sort();
  return {
    files: files.map((file) =>
      score(
        file,
        mutants.filter((mutant) => mutant.file === file),
      ),
    ),
    total: score('all files', mutants),
    unexplained: lived.filter((mutant) => !equivalent.has(mutant) && !killedByHand.has(mutant)),
    stale,
  };
}
