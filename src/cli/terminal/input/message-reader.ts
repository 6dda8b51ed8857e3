/**
 * The conversation's input line: one message from the person, read with Node's readline (editing,
 * Up/Down history) on keys that `PasteDecoder` has already told apart from pasted text, and
 * `TypedText` from plain text, which goes in at the cursor however many characters a read holds. A
 * message may span lines: a paste keeps its newlines (shown as `[pasted 3 lines]`), and a line
 * ending in `\` or sent with Alt-Enter goes on on the next line. Each Enter ends a message: lines
 * that arrive together (typed ahead, or pasted where the terminal has no bracketed paste) are the
 * next messages, in order, shown at their own prompt when their turn comes.
 */
import { createInterface } from "node:readline";
import { PassThrough } from "node:stream";
import { StringDecoder } from "node:string_decoder";
import { reapplyRawMode, stopAndContinue } from "./job-control.js";
import { splitAtLineEnds } from "./line-ends.js";
import { DEFAULT_PASTE_LIMIT, PasteDecoder } from "./paste-decoder.js";
import { needsPlaceholder, PastedTexts } from "./pasted-texts.js";
import type { TerminalInput } from "./terminal-input.js";
import { TypedText, type PromptInputEvent } from "./typed-text.js";

export interface ReadMessage {
  /** What the model receives: pastes in full, continued lines joined by newlines. */
  readonly text: string;
  /** What the person saw in the line, placeholders and all (a slash command is only ever typed). */
  readonly typed: string;
  /** Whether any of it was pasted: a paste is a message, never a command. */
  readonly pasted: boolean;
}

/** Where lines are kept between sessions (the state directory's history file). */
export interface HistoryStore {
  /** Oldest first. */
  readonly entries: readonly string[];
  add(line: string): void;
}

export interface MessageReaderOptions {
  readonly input: TerminalInput & { readonly isRaw?: boolean };
  readonly output: NodeJS.WritableStream;
  readonly store?: HistoryStore;
  readonly pasteLimit?: number;
  readonly historySize?: number;
}

export const PROMPT = "> ";
/** The prompt of a message's second and later lines. */
export const CONTINUATION_PROMPT = "… ";
const BRACKETED_PASTE_ON = "\u001b[?2004h";
const BRACKETED_PASTE_OFF = "\u001b[?2004l";
const DEFAULT_HISTORY_SIZE = 500;

export class MessageReader {
  readonly #options: MessageReaderOptions;
  readonly #pastes = new PastedTexts();
  /** One decoder for the whole session: a paste's markers may fall either side of a message. */
  readonly #decoder: PasteDecoder;
  readonly #utf8 = new StringDecoder("utf8");
  /** For the whole session too: a key's escape sequence may fall either side of a read. */
  readonly #typed = new TypedText();
  /** Read from the terminal, not yet given to a prompt: the next messages' keys. */
  readonly #unread: PromptInputEvent[] = [];
  /** Newest first, as readline keeps it. */
  #history: string[];

  constructor(options: MessageReaderOptions) {
    this.#options = options;
    this.#history = [...(options.store?.entries ?? [])].reverse().slice(0, this.#historySize);
    this.#decoder = new PasteDecoder(options.pasteLimit ?? DEFAULT_PASTE_LIMIT);
  }

  get #historySize(): number {
    return this.#options.historySize ?? DEFAULT_HISTORY_SIZE;
  }

  /** One message; `undefined` for Ctrl-D, Ctrl-C on an empty line, or the end of the input. */
  read(): Promise<ReadMessage | undefined> {
    const { input, output } = this.#options;
    const ended = input.readableEnded === true || input.destroyed === true;
    if (ended && this.#unread.length === 0) return Promise.resolve(undefined);
    return new Promise((resolve) => {
      // readline reads keys from here; pasted text reaches it only as a placeholder.
      const keys = new PassThrough();
      const reader = createInterface({
        input: keys,
        output,
        terminal: true,
        history: [...this.#history],
        historySize: this.#historySize,
        removeHistoryDuplicates: true,
      });
      const lines: string[] = [];
      let pasted = false;
      let newlineKey = false;
      let settled = false;
      /** Keys are on their way to readline: the next wait until it has taken them. */
      let inFlight = false;
      const wasRaw = input.isRaw === true;

      // After Ctrl-Z and `fg` the prompt is back in raw mode, bracketed paste on, and still waits.
      const endJobControl = stopAndContinue(reader, {
        release: () => {
          output.write(BRACKETED_PASTE_OFF);
          input.setRawMode?.(false);
        },
        retake: () => {
          reapplyRawMode(input);
          output.write(BRACKETED_PASTE_ON);
          reader.prompt(true);
        },
      });
      const settle = (message: ReadMessage | undefined): void => {
        if (settled) return;
        settled = true;
        endJobControl();
        input.off("data", onData);
        input.off("end", onEnd);
        output.write(BRACKETED_PASTE_OFF);
        reader.close();
        input.setRawMode?.(wasRaw);
        input.pause();
        if (message === undefined) output.write("\n");
        resolve(message);
      };
      /** Hands one event to readline; true when keys went its way (it takes them later). */
      const give = (event: PromptInputEvent): boolean => {
        switch (event.kind) {
          case "keys":
            keys.write(event.text);
            return true;
          // Text is inserted at the cursor, never sent as keys: readline would put all but the
          // last character of a read of several at the end of the line (see typed-text.ts).
          case "text":
            reader.write(event.text);
            return false;
          case "newline":
            newlineKey = true;
            keys.write("\r");
            return true;
          case "paste":
            pasted = true;
            // Text as well: a placeholder or a line without control characters.
            reader.write(
              needsPlaceholder(event.text) ? this.#pastes.placeholder(event.text) : event.text,
            );
            return false;
          case "paste-refused":
            output.write(`\n${pasteRefused(event.characters, this.#decoder.limit)}\n`);
            reader.prompt(true);
            return false;
        }
      };
      // One event at a time: an Enter that sends the message settles it before readline sees
      // the next line, which stays unread for the next message. Readline takes keys as they are
      // written, so the next event is given by the loop already running, not from inside `give`
      // one call deeper per event (a line of text and keys cut apart is many events).
      let giving = false;
      const giveNext = (): void => {
        if (giving) return;
        giving = true;
        try {
          while (!settled && !inFlight) {
            const event = this.#unread.shift();
            if (event === undefined) return;
            // Set first: readline may take the keys (and clear it) before `give` returns.
            inFlight = true;
            if (!give(event)) inFlight = false;
          }
        } finally {
          giving = false;
        }
      };
      // Added after readline's own listener: by now readline has taken the keys.
      keys.on("data", () => {
        inFlight = false;
        giveNext();
      });
      const onData = (chunk: Buffer | string): void => {
        const text = typeof chunk === "string" ? chunk : this.#utf8.write(chunk);
        this.#unread.push(...this.#typed.split(splitAtLineEnds(this.#decoder.feed(text))));
        giveNext();
      };
      const onEnd = (): void => {
        settle(undefined);
      };

      reader.on("line", (line) => {
        if (settled) return;
        this.#remember(line);
        const continued = newlineKey || line.endsWith("\\");
        lines.push(!newlineKey && continued ? line.slice(0, -1) : line);
        newlineKey = false;
        if (continued) {
          reader.setPrompt(CONTINUATION_PROMPT);
          reader.prompt();
          return;
        }
        const typed = lines.join("\n");
        settle({ text: this.#pastes.expand(typed), typed, pasted });
      });
      reader.once("close", () => {
        settle(undefined);
      });
      reader.on("SIGINT", () => {
        // Ctrl-C with text typed clears it (a message of several lines, all of them); on an
        // empty line it ends the session.
        if (reader.line === "" && lines.length === 0) {
          settle(undefined);
          return;
        }
        lines.length = 0;
        pasted = false;
        output.write("\n");
        reader.write(null, { ctrl: true, name: "u" });
        reader.setPrompt(PROMPT);
        reader.prompt();
      });
      reader.on("error", () => {
        settle(undefined);
      });
      input.setRawMode?.(true);
      output.write(BRACKETED_PASTE_ON);
      reader.setPrompt(PROMPT);
      reader.prompt();
      // What earlier reads left over comes first, drawn after the prompt as if typed there.
      giveNext();
      // eslint-disable-next-line @typescript-eslint/no-unnecessary-condition -- giveNext may settle
      if (settled) return;
      if (ended) {
        onEnd();
        return;
      }
      input.on("data", onData);
      input.once("end", onEnd);
      input.resume();
    });
  }

  /** Up/Down offers it from now on, in this session and (unless it shows a paste) the next. */
  #remember(line: string): void {
    if (line.trim() === "") return;
    this.#history = [line, ...this.#history.filter((kept) => kept !== line)].slice(
      0,
      this.#historySize,
    );
    // A placeholder means nothing in another session: its paste is not kept.
    if (!this.#pastes.holdsPaste(line)) this.#options.store?.add(line);
  }
}

function pasteRefused(characters: number, limit: number): string {
  return `agent: paste not taken: ${characters.toLocaleString("en")} characters, more than the ${limit.toLocaleString("en")} a message may hold; save it to a file in the workspace and name the file instead`;
}
