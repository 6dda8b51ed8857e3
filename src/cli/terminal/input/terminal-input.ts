/** The person's keyboard as the prompts read it: a tty.ReadStream, or a stream standing in for one. */
export interface TerminalInput extends NodeJS.ReadableStream {
  readonly isTTY?: boolean;
  /** tty.ReadStream has it: raw mode lets type-ahead that has no Enter yet be discarded too. */
  setRawMode?(mode: boolean): unknown;
  /** Node streams set these; a prompt on a stream that has ended would wait for ever. */
  readonly readableEnded?: boolean;
  readonly destroyed?: boolean;
}
