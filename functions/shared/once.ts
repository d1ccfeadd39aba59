/**
 * `load` run once: the first call's promise serves every later one, and a load that failed is tried again
 * by the next call. For what an instance needs once and keeps: the write-only modules (an `import()` of a
 * module already loaded still resolves its specifier anew on each call: 0.26 ms a comment post under tsx),
 * the table's layout check, the client's signer.
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}
