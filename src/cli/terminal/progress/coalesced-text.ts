/**
 * Streamed text gathered into one write per turn of the event loop. On a terminal every write is
 * a blocking system call into the pseudo-terminal; a reply streamed in 30-character pieces made
 * one per piece, which cost more than escaping and laying the text out. All the pieces that arrive
 * from one read of the model's socket are handed to `write` together (the progress reporter lays
 * them out there, in one scan), before anything else runs, so the person sees them as soon as
 * before. Whoever writes anything else to the same stream calls `flush()` first, so nothing
 * overtakes the text.
 */
export class CoalescedText {
  readonly #write: (text: string) => void;
  #pending = "";
  #scheduled: ReturnType<typeof setImmediate> | undefined;

  constructor(write: (text: string) => void) {
    this.#write = write;
  }

  add(text: string): void {
    if (text === "") return;
    this.#pending += text;
    this.#scheduled ??= setImmediate(() => {
      this.flush();
    });
  }

  flush(): void {
    if (this.#scheduled !== undefined) clearImmediate(this.#scheduled);
    this.#scheduled = undefined;
    const text = this.#pending;
    this.#pending = "";
    if (text !== "") this.#write(text);
  }
}
