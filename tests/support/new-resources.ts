/**
 * What a piece of code left running in this process: the kinds of active resource (`Timeout`,
 * `TCPSocketWrap`, `FSReqCallback`, …) there are more of now than in `before`, one entry per
 * extra. The test runner's own come and go meanwhile, so "equal to before" would be flaky; more
 * of a kind than before is what was left.
 */
export function newResources(before: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const kind of before) left.set(kind, (left.get(kind) ?? 0) + 1);
  const extra: string[] = [];
  for (const kind of process.getActiveResourcesInfo()) {
    const count = left.get(kind) ?? 0;
    if (count > 0) left.set(kind, count - 1);
    else extra.push(kind);
  }
  return extra;
}
