/** A mutant as Stryker reports it, reduced to what the score needs. */
export interface ScoredMutant {
  /** Relative to the project root, with forward slashes. */
  readonly file: string;
  readonly mutator: string;
  readonly replacement: string;
  /** The source text the mutant replaces. */
  readonly original: string;
  /** 1-based. */
  readonly line: number;
  readonly status: string;
}

/**
 * A survivor explained: equivalent (no test can kill it: it changes nothing observable), or misreported
 * (`killedByHandEdit`: the runner counts a module that fails to load as passing; the named hand edit
 * applies the same change and shows the tests fail).
 */
export interface EquivalentMutant {
  readonly file: string;
  /** Where it was when listed: only a tie-breaker, so the list survives edits above it. */
  readonly line: number;
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
  /** Mutants that lived and are not listed as equivalent: each wants a test. */
  readonly unexplained: readonly ScoredMutant[];
  /** Listed equivalents no surviving mutant matches (killed, or the code changed): the list needs care. */
  readonly stale: readonly EquivalentMutant[];
}

const killedStatuses = new Set(['Killed', 'Timeout']);
const livedStatuses = new Set(['Survived', 'NoCoverage']);

const sameMutant = (mutant: ScoredMutant, listed: EquivalentMutant) =>
  mutant.file === listed.file &&
  mutant.mutator === listed.mutator &&
  mutant.replacement === listed.replacement &&
  mutant.original === listed.original;

/**
 * Scores `mutants` file by file. A surviving mutant counts as equivalent only when `equivalents` lists
 * it (file, mutator, original and replacement text; the nearest line when several match).
 */
export function scoreMutants(
  mutants: readonly ScoredMutant[],
  equivalents: readonly EquivalentMutant[],
): MutationScore {
  const lived = mutants.filter((mutant) => livedStatuses.has(mutant.status));
  const matched = new Set<ScoredMutant>();
  const killedByHand = new Set<ScoredMutant>();
  const stale: EquivalentMutant[] = [];
  for (const listed of equivalents) {
    const candidates = lived
      .filter((mutant) => !matched.has(mutant) && sameMutant(mutant, listed))
      .sort((a, b) => Math.abs(a.line - listed.line) - Math.abs(b.line - listed.line));
    if (candidates[0]) (listed.killedByHandEdit ? killedByHand : matched).add(candidates[0]);
    else stale.push(listed);
  }

  const score = (file: string, own: readonly ScoredMutant[]): FileScore => {
    const killed = own.filter(
      (mutant) => killedStatuses.has(mutant.status) || killedByHand.has(mutant),
    ).length;
    const equivalent = own.filter((mutant) => matched.has(mutant)).length;
    const survived = own.filter(
      (mutant) => livedStatuses.has(mutant.status) && !matched.has(mutant) && !killedByHand.has(mutant),
    ).length;
    const counted = killed + survived;
    return {
      file,
      mutants: own.length,
      killed,
      survived,
      equivalent,
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
    unexplained: lived.filter((mutant) => !matched.has(mutant) && !killedByHand.has(mutant)),
    stale,
  };
}
