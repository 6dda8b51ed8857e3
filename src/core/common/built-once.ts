/**
 * A value built at its first use instead of when its module loads. A zod schema costs tens of
 * microseconds to build, and every module of the bundle loads at start-up: the schemas only some
 * commands need (reading journals, recordings, P04's state files) are built when first used, so a
 * plain run does not build them before its first model request.
 */
export function builtOnce<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
