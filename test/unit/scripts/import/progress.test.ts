import { describe, expect, it } from 'vitest';
import { createProgress } from '../../../../scripts/import/progress.js';

/** A stream that records what is written to it, a terminal or not. */
function fakeStream(isTTY: boolean) {
  const written: string[] = [];
  const stream = {
    isTTY,
    columns: 100,
    write(chunk: string, callback?: () => void) {
      written.push(chunk);
      callback?.();
      return true;
    },
  } as unknown as NodeJS.WriteStream;
  return { stream, written };
}

const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

describe('createProgress', () => {
  it('logs a line at each tenth and writes nothing on the stream when it is not a terminal', () => {
    const { stream, written } = fakeStream(false);
    const lines: string[] = [];
    const progress = createProgress('Writing', 100, stream, (line) => lines.push(line));

    for (let done = 1; done <= 100; done++) progress.update(done);
    progress.finish();

    expect(lines).toEqual([
      'Writing: 1/100',
      ...Array.from({ length: 10 }, (_, i) => `Writing: ${(i + 1) * 10}/100`),
    ]);
    expect(written).toEqual([]);
  });

  it('logs the total on finish when the updates stopped short of it', () => {
    const lines: string[] = [];
    const progress = createProgress('Writing', 12, fakeStream(false).stream, (line) => lines.push(line));

    progress.update(3);
    progress.finish();

    expect(lines).toEqual(['Writing: 3/12', 'Writing: 12/12']);
  });

  it('draws a full bar and ends its line on finish when the stream is a terminal', () => {
    const { stream, written } = fakeStream(true);
    const lines: string[] = [];
    const progress = createProgress('Writing', 10, stream, (line) => lines.push(line));

    progress.update(4);
    progress.finish();

    const output = written.join('');
    expect(output).toContain(`Writing [${'#'.repeat(30)}] 10/10`);
    expect(output.endsWith('\n')).toBe(true);
    expect(lines).toEqual([]);
  });

  it('keeps no timer holding the process when a bar on a terminal is never finished', () => {
    const before = timers();

    const progress = createProgress('Writing', 10, fakeStream(true).stream);
    progress.update(4);

    expect(timers()).toBe(before);
    progress.finish();
  });
});
