/** Reads JSON and JSON Lines files into rows, each with a reference for the report. */
import { BadInputError, type InputFile } from './source.js';

/** One object of a file, and where it was. */
export interface Row {
  readonly ref: string;
  readonly row: Record<string, unknown>;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The whole file as one JSON value, or undefined when it is not one (JSON Lines, say). */
export function wholeJson(file: InputFile): unknown {
  const trimmed = file.text.trim();
  if (!trimmed.startsWith('{') && !trimmed.startsWith('[')) return undefined;
  try {
    return JSON.parse(trimmed);
  } catch {
    return undefined;
  }
}

/**
 * The rows of a file: a JSON array, `{results: [...]}` (LeanCloud before 2020), `{code, data: [...]}`
 * (Twikoo API backups), or JSON Lines with `#` header lines skipped (LeanCloud since 2020).
 */
export function jsonRows(file: InputFile): Row[] {
  const whole = wholeJson(file);
  const list = Array.isArray(whole)
    ? whole
    : isObject(whole) && Array.isArray(whole.results)
      ? whole.results
      : isObject(whole) && Array.isArray(whole.data)
        ? whole.data
        : undefined;
  if (list) {
    return list.map((row, i) => {
      if (!isObject(row)) throw new BadInputError(`${file.name} record ${i + 1}: must be a JSON object`);
      return { ref: `${file.name} record ${i + 1}`, row };
    });
  }
  const rows: Row[] = [];
  file.text.split('\n').forEach((line, i) => {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) return;
    let row: unknown;
    try {
      row = JSON.parse(trimmed);
    } catch (error) {
      throw new BadInputError(`${file.name} line ${i + 1}: not valid JSON (${(error as Error).message})`);
    }
    if (!isObject(row)) throw new BadInputError(`${file.name} line ${i + 1}: must be a JSON object`);
    rows.push({ ref: `${file.name} line ${i + 1}`, row });
  });
  return rows;
}

/** The class a LeanCloud file holds: from its `#filetype` header, its `className`, or its name. */
export function leanCloudClass(file: InputFile): string | undefined {
  const header = /^#filetype:[^{]*(\{.*\})/m.exec(file.text);
  if (header?.[1]) {
    try {
      const parsed = JSON.parse(header[1]) as { class?: unknown };
      if (typeof parsed.class === 'string') return parsed.class;
    } catch {
      // An unreadable header names no class; the file name may.
    }
  }
  const whole = wholeJson(file);
  if (isObject(whole) && typeof whole.className === 'string') return whole.className;
  return /(?:^|[/:])([A-Za-z_]\w*)\.\d+\.jsonl$/.exec(file.name)?.[1];
}
