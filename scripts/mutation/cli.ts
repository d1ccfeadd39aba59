/**
 * `npm run mutation`: how much of what the core modules do the tests pin.
 *
 * 1. StrykerJS mutates the core modules (stryker.config.json) and runs the unit tests against each
 *    mutant; the score per file leaves out the mutants equivalent-mutants.json explains.
 * 2. The hand edits of hand-edits.ts (the reference's list of what once left every test green) are
 *    applied one at a time in a copy of the project, and each must fail one of its tests.
 *
 * Fails when the score is under 90 %, a survivor is unexplained, a listing is stale, or a hand edit is
 * not caught. Flags: `--only=stryker|hand` (with `stryker` alone, a survivor credited to a hand edit
 * stays a survivor); `--incremental` reuses the last Stryker run for unchanged code and tests.
 */
import { execFileSync } from 'node:child_process';
import { cp, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import { Stryker } from '@stryker-mutator/core';
import { runCli } from '../run-cli.js';
import { handEdits } from './hand-edits.js';
import {
  type EquivalentMutant,
  type MutationScore,
  type ScoredMutant,
  scoreMutants,
} from './mutation-score.js';
import { runHandEdits } from './run-hand-edits.js';

const root = process.cwd();
const requiredScore = 90;
const equivalentsFile = 'scripts/mutation/equivalent-mutants.json';

const seconds = (since: number) => `${Math.round((Date.now() - since) / 1000)} s`;

/** A span of source, 1-based in lines and columns. */
interface SourceSpan {
  readonly start: { readonly line: number; readonly column: number };
  readonly end: { readonly line: number; readonly column: number };
}

/** The text a mutant replaces, from the lines of its file. */
function originalText(lines: readonly string[], { start, end }: SourceSpan): string {
  if (start.line === end.line) return lines[start.line - 1]?.slice(start.column - 1, end.column - 1) ?? '';
  return [
    lines[start.line - 1]?.slice(start.column - 1),
    ...lines.slice(start.line, end.line - 1),
    lines[end.line - 1]?.slice(0, end.column - 1),
  ].join('\n');
}

/** Runs Stryker and reads each mutant's original text from the sources. */
async function runStryker(incremental: boolean): Promise<ScoredMutant[]> {
  const results = await new Stryker({
    configFile: 'stryker.config.json',
    incremental,
    incrementalFile: '.mutation/incremental.json',
  }).runMutationTest();
  // Each file is read and split once, not once per mutant.
  const sources = new Map<string, string[]>();
  const mutants: ScoredMutant[] = [];
  for (const result of results) {
    const file = relative(root, result.fileName).split(sep).join('/');
    if (!sources.has(file)) sources.set(file, (await readFile(join(root, file), 'utf8')).split('\n'));
    // The results carry the report's locations: lines and columns both 1-based.
    const { location } = result;
    mutants.push({
      file,
      mutator: result.mutatorName,
      replacement: result.replacement ?? '',
      original: originalText(sources.get(file) ?? [], location),
      line: location.start.line,
      column: location.start.column,
      status: result.status,
    });
  }
  await writeFile('.mutation/mutants.json', JSON.stringify(mutants, null, 2));
  return mutants;
}

/** The list of explained survivors, checked for hand edits it names that do not exist. */
async function readEquivalents(): Promise<EquivalentMutant[]> {
  const equivalents = JSON.parse(await readFile(equivalentsFile, 'utf8')) as EquivalentMutant[];
  const handEditNames = new Set(handEdits.map((edit) => edit.name));
  for (const listed of equivalents) {
    if (listed.killedByHandEdit !== undefined && !handEditNames.has(listed.killedByHandEdit)) {
      throw new Error(`${equivalentsFile}: no hand edit is named "${listed.killedByHandEdit}"`);
    }
  }
  return equivalents;
}

function printScore(score: MutationScore): void {
  const rows = [...score.files, score.total].map((file) => ({
    file: file.file,
    mutants: file.mutants,
    killed: file.killed,
    survived: file.survived,
    equivalent: file.equivalent,
    score: `${file.score.toFixed(1)} %`,
  }));
  console.table(rows);
  for (const mutant of score.unexplained) {
    console.log(
      `survived: ${mutant.file}:${mutant.line}:${mutant.column} ${mutant.mutator} ${JSON.stringify(mutant.original)} -> ${JSON.stringify(mutant.replacement)}`,
    );
  }
  for (const listed of score.stale) {
    console.log(
      `stale listing (no such survivor any more, or its hand edit not caught): ${listed.file}:${listed.line}:${listed.column} ${listed.mutator} ${JSON.stringify(listed.original)}`,
    );
  }
}

/** A copy of the project's files (what git tracks or would), sharing node_modules, for the hand edits. */
async function workingCopy(): Promise<string> {
  const copy = await mkdtemp(join(tmpdir(), 'marginalia-hand-edits-'));
  const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], {
    encoding: 'utf8',
  })
    .split('\0')
    .filter(Boolean);
  for (const file of files) {
    await mkdir(dirname(join(copy, file)), { recursive: true });
    await cp(join(root, file), join(copy, file)).catch((error: NodeJS.ErrnoException) => {
      // A file deleted but not yet staged is listed by git and gone from the disk.
      if (error.code !== 'ENOENT') throw error;
    });
  }
  await symlink(join(root, 'node_modules'), join(copy, 'node_modules'));
  await mkdir(join(copy, 'tools/node22'), { recursive: true });
  await symlink(join(root, 'tools/node22/node_modules'), join(copy, 'tools/node22/node_modules')).catch(
    () => {},
  );
  await mkdir(join(copy, '.mutation'), { recursive: true });
  return copy;
}

async function main(): Promise<void> {
  const only = process.argv.find((arg) => arg.startsWith('--only='))?.slice('--only='.length);
  const incremental = process.argv.includes('--incremental');
  const started = Date.now();
  await mkdir('.mutation', { recursive: true });
  const problems: string[] = [];

  const mutants = only === 'hand' ? undefined : await runStryker(incremental);
  if (mutants) console.log(`\nStryker, ${seconds(started)}.`);

  // The hand edits run before the score: a survivor credited to one counts only once it is caught.
  const caught = new Set<string>();
  if (only !== 'stryker') {
    const handStarted = Date.now();
    const copy = await workingCopy();
    try {
      console.log(`\nHand edits (${handEdits.length}), each against its tests:`);
      const outcomes = await runHandEdits(copy, handEdits, ({ edit, verdict, failed }) => {
        console.log(`${verdict.padEnd(8)} ${edit.name} (${edit.file})`);
        for (const name of failed.slice(0, 3)) console.log(`           fails: ${name}`);
      });
      const missed = outcomes.filter((outcome) => outcome.verdict !== 'caught');
      console.log(`${outcomes.length - missed.length} of ${outcomes.length} caught, ${seconds(handStarted)}`);
      for (const { edit, verdict } of missed) problems.push(`hand edit ${verdict}: ${edit.name}`);
      for (const { edit } of outcomes.filter((outcome) => outcome.verdict === 'caught'))
        caught.add(edit.name);
    } finally {
      await rm(copy, { recursive: true, force: true });
    }
  }

  if (mutants) {
    const score = scoreMutants(mutants, await readEquivalents(), caught);
    console.log('\nMutation score per file:');
    printScore(score);
    if (score.total.score < requiredScore) {
      problems.push(`mutation score ${score.total.score.toFixed(1)} % is under ${requiredScore} %`);
    }
    if (score.unexplained.length > 0) problems.push(`${score.unexplained.length} unexplained survivors`);
    if (score.stale.length > 0) problems.push(`${score.stale.length} stale listings in ${equivalentsFile}`);
  }

  console.log(`\nmutation run: ${seconds(started)}`);
  if (problems.length > 0) throw new Error(problems.join('\n'));
}

await runCli(main);
