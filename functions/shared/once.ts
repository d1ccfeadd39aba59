/**
 * `load` run once: the first call's promise serves every later one, and a load that failed is tried again
 * by the next call. For dynamic imports: an `import()` of a module already loaded still resolves its
 * specifier anew on each call (through the module loader's hooks when there are any: 0.26 ms a comment
 * post under tsx, in a profile of 1,800 posts).
 */
export function once<T>(load: () => Promise<T>): () => Promise<T> {
  let loaded: Promise<T> | undefined;
  return () =>
    (loaded ??= load().catch((error: unknown) => {
      loaded = undefined;
      throw error;
    }));
}
