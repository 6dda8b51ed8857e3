/**
 * The forms a secret takes when a command prints it encoded: `base64` (standard or URL-safe, at
 * any of the three alignments it can start at inside a longer encoded text) and hex (lower or
 * upper case). A command that reads the API key from /proc (with `--sandbox off`) and prints
 * `base64` of it must show the model `[redacted]` too, not something decoded in one step.
 *
 * Not caught: an encoding split across lines (`base64` wraps at 76 columns unless `-w0`; `xxd`
 * groups hex), any other transformation (gzip, a cipher, one character per line). Redaction is
 * a backstop; the sandbox, which never gives a command the secret, is the protection.
 */

/** The literal secret's encoded forms; each one as long as the secret's bytes fully decide. */
export function encodedForms(secret: string): string[] {
  const bytes = Buffer.from(secret, "utf8");
  const forms = new Set<string>();
  for (let shift = 0; shift < 3; shift += 1) {
    const core = base64Core(bytes, shift);
    forms.add(core);
    forms.add(core.replaceAll("+", "-").replaceAll("/", "_"));
  }
  const hex = bytes.toString("hex");
  forms.add(hex);
  forms.add(hex.toUpperCase());
  forms.delete(secret);
  forms.delete("");
  return [...forms];
}

/**
 * The base64 characters that depend on the secret's bits alone when it starts `shift` bytes into
 * a three-byte group: the characters that also hold a neighbour's bits differ from text to text.
 */
function base64Core(bytes: Buffer, shift: number): string {
  const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString("base64");
  const firstBit = 8 * shift;
  const endBit = firstBit + 8 * bytes.length;
  const first = Math.ceil(firstBit / 6);
  const end = Math.floor(endBit / 6);
  return encoded.slice(first, end);
}
