/** Where local mode keeps its data: DynamoDB Local's files, the stream checkpoint, the local secrets. */
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const checkoutData = join(dirname(fileURLToPath(import.meta.url)), '..', '.data');

/** `LOCAL_DATA_DIR` when set (a second checkout's data, a test's), else `.data` in this checkout. */
export function localDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.LOCAL_DATA_DIR?.trim();
  return chosen ? resolve(chosen) : checkoutData;
}
