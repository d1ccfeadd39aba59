import { spawn } from 'node:child_process';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { HandEdit } from './hand-edits.js';

/** What one edit did to its tests. */
export interface HandEditOutcome {
  readonly edit: HandEdit;
  /**
   * `caught`: a test failed (a file that fails to load counts only for an edit marked `failsToLoad`);
   * `survived`: none did; `stale`: the text to edit is not (once) in the file.
   */
  readonly verdict: 'caught' | 'survived' | 'stale';
  /** The full names of the tests that failed. */
  readonly failed: readonly string[];
}

interface VitestJson {
  readonly numFailedTests: number;
  readonly numFailedTestSuites: number;
  readonly testResults: ReadonlyArray<{
    readonly name: string;
    readonly status: string;
    readonly assertionResults: ReadonlyArray<{ readonly fullName: string; readonly status: string }>;
  }>;
}

/** Runs `tests` in `root` with vitest and reads its JSON report. */
async function runTests(root: string, tests: readonly string[], report: string): Promise<VitestJson> {
  await rm(report, { force: true });
  let errors = '';
  await new Promise<void>((done, fail) => {
    const child = spawn(
      join(root, 'node_modules/.bin/vitest'),
      ['run', ...tests, '--reporter=json', `--outputFile=${report}`],
      { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    child.stderr.on('data', (chunk: Buffer) => (errors += chunk.toString('utf8')));
    child.on('error', fail);
    child.on('exit', () => done());
  });
  try {
    return JSON.parse(await readFile(report, 'utf8')) as VitestJson;
  } catch (cause) {
    // No report: vitest itself failed (not a test); what it said is the only clue.
    throw new Error(`vitest wrote no report for ${tests.join(' ')}:\n${errors.slice(-4000)}`, { cause });
  }
}

/** The full names of the tests that failed; with `loadFailures`, also each file that failed to load. */
const failures = (result: VitestJson, loadFailures: boolean): string[] =>
  result.testResults.flatMap((file) => {
    const tests = file.assertionResults.filter((test) => test.status === 'failed');
    // A file that failed to load has no test results: a catch only for an edit meant to break loading.
    const loading = tests.length === 0 && file.status === 'failed' && loadFailures;
    return loading ? [`${file.name} (failed to load)`] : tests.map((test) => test.fullName);
  });

/**
 * Applies each edit in `root` (a working copy), runs its tests and restores the file, whatever happens.
 * The unedited tests are run first: an edit counts as caught only against a green baseline.
 */
export async function runHandEdits(
  root: string,
  edits: readonly HandEdit[],
  onOutcome: (outcome: HandEditOutcome) => void = () => {},
): Promise<HandEditOutcome[]> {
  const report = join(root, '.mutation', 'hand-edit-report.json');
  const allTests = [...new Set(edits.flatMap((edit) => edit.tests))];
  const baseline = await runTests(root, allTests, report);
  const baselineFailures = failures(baseline, true);
  if (baselineFailures.length > 0) {
    throw new Error(`The unedited tests fail, so no edit can be judged:\n  ${baselineFailures.join('\n  ')}`);
  }
  const outcomes: HandEditOutcome[] = [];
  for (const edit of edits) {
    const path = join(root, edit.file);
    const source = await readFile(path, 'utf8');
    let outcome: HandEditOutcome;
    if (source.split(edit.from).length !== 2) {
      outcome = { edit, verdict: 'stale', failed: [] };
    } else {
      try {
        await writeFile(
          path,
          source.replace(edit.from, () => edit.to),
        );
        const failed = failures(await runTests(root, edit.tests, report), edit.failsToLoad === true);
        outcome = { edit, verdict: failed.length > 0 ? 'caught' : 'survived', failed };
      } finally {
        await writeFile(path, source);
      }
    }
    outcomes.push(outcome);
    onOutcome(outcome);
  }
  return outcomes;
}
