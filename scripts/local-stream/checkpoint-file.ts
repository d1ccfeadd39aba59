/**
 * Where local mode's stream poller has got to, kept in a JSON file (under .data/ for `npm start`): the last
 * sequence number it finished with on each shard of one stream. Written whole to a temporary file and
 * renamed over the old one, so a crash leaves the old checkpoint or the new one, never half of either.
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as z from '../../functions/shared/domain/zod.js';

/** The poller's position in one stream. */
export interface Checkpoint {
  /** The stream the positions belong to: another stream (re-enabled, a new table) starts afresh. */
  readonly streamArn: string;
  /** Per shard id: the last sequence number handled (sent, filtered out or dead-lettered). */
  readonly shards: Readonly<Record<string, string>>;
  /** Closed shards read to their end: their children may start. */
  readonly finishedShards: readonly string[];
}

/** Reads and writes one checkpoint file. */
export interface CheckpointFile {
  /** The checkpoint of `streamArn`, or an empty one when the file is missing or names another stream. */
  load(streamArn: string): Promise<Checkpoint>;
  /** Replaces the file's content with `checkpoint`, atomically. */
  save(checkpoint: Checkpoint): Promise<void>;
}

/** The checkpoint kept at `path`. */
export function createCheckpointFile(path: string): CheckpointFile {
  let writes = 0;
  return {
    async load(streamArn) {
      const empty: Checkpoint = { streamArn, shards: {}, finishedShards: [] };
      let text: string;
      try {
        text = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return empty;
        throw error;
      }
      const stored = parseCheckpoint(text, path);
      return stored.streamArn === streamArn ? stored : empty;
    },
    async save(checkpoint) {
      await mkdir(dirname(path), { recursive: true });
      writes += 1;
      const temporary = `${path}.${process.pid}.${writes}.tmp`;
      await writeFile(temporary, `${JSON.stringify(checkpoint, null, 2)}\n`);
      await rename(temporary, path);
    },
  };
}

const checkpointSchema = z.object({
  streamArn: z.string(),
  shards: z.record(z.string(), z.string()),
  finishedShards: z._default(z.array(z.string()), []),
});

function parseCheckpoint(text: string, path: string): Checkpoint {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  const result = checkpointSchema.safeParse(value);
  if (!result.success) {
    throw new Error(`${path} is not a stream checkpoint: delete it to read the stream from its start`);
  }
  return result.data;
}
