/** What bootstrap reads of the process it runs in: its environment and platform, never its I/O. */
export interface Host {
  readonly env: Readonly<Record<string, string | undefined>>;
  readonly platform: NodeJS.Platform;
}
