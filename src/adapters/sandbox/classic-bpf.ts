/**
 * A tiny assembler for classic BPF, the only language seccomp accepts. Jumps name labels instead of
 * counting instructions by hand, so adding a rule cannot silently shift every later offset.
 *
 * Encoding (linux/filter.h): `struct sock_filter { __u16 code; __u8 jt; __u8 jf; __u32 k; }`, eight
 * bytes, in the machine's byte order. Both architectures we generate for (x86_64, aarch64) are
 * little-endian; a big-endian target would need another writer, and has another AUDIT_ARCH anyway.
 */

/** `BPF_LD | BPF_W | BPF_ABS`: A = the 32-bit word at offset k of struct seccomp_data. */
const LD_W_ABS = 0x20;
/** `BPF_JMP | BPF_JEQ | BPF_K`, `BPF_JGE`, `BPF_JSET` (A & k != 0); all compare unsigned. */
const JEQ_K = 0x15;
const JGE_K = 0x35;
const JSET_K = 0x45;
/** `BPF_RET | BPF_K`: the filter's verdict is k. */
const RET_K = 0x06;

/** Where a conditional jump goes: the name of a label defined later, or "next" for no jump. */
export type Target = string;

export type Instruction =
  | { readonly op: "load"; readonly offset: number }
  | {
      readonly op: "jeq" | "jge" | "jset";
      readonly k: number;
      readonly then: Target;
      readonly else: Target;
    }
  | { readonly op: "return"; readonly value: number }
  | { readonly op: "label"; readonly name: string };

export const SOCK_FILTER_BYTES = 8;
/** BPF_MAXINSNS: the kernel refuses longer programs. */
const MAX_INSTRUCTIONS = 4096;
/** jt and jf are u8: a conditional jump reaches at most 255 instructions ahead. */
const MAX_JUMP = 255;

/** Encodes the program; throws on an unknown or backward label, which classic BPF cannot express. */
export function assemble(program: readonly Instruction[]): Uint8Array {
  const labels = new Map<string, number>();
  let count = 0;
  for (const instruction of program) {
    if (instruction.op !== "label") {
      count += 1;
      continue;
    }
    if (labels.has(instruction.name)) throw new Error(`label defined twice: ${instruction.name}`);
    labels.set(instruction.name, count);
  }
  if (count > MAX_INSTRUCTIONS) throw new RangeError(`program too long: ${String(count)}`);

  const bytes = new Uint8Array(count * SOCK_FILTER_BYTES);
  const view = new DataView(bytes.buffer);
  let index = 0;
  for (const instruction of program) {
    if (instruction.op === "label") continue;
    const [code, jt, jf, k] = encode(instruction, index, labels);
    const at = index * SOCK_FILTER_BYTES;
    view.setUint16(at, code, true);
    view.setUint8(at + 2, jt);
    view.setUint8(at + 3, jf);
    view.setUint32(at + 4, k >>> 0, true);
    index += 1;
  }
  return bytes;
}

type Encoded = readonly [code: number, jt: number, jf: number, k: number];

function encode(
  instruction: Exclude<Instruction, { op: "label" }>,
  index: number,
  labels: ReadonlyMap<string, number>,
): Encoded {
  switch (instruction.op) {
    case "load":
      return [LD_W_ABS, 0, 0, instruction.offset];
    case "return":
      return [RET_K, 0, 0, instruction.value];
    case "jeq":
    case "jge":
    case "jset": {
      const code = instruction.op === "jeq" ? JEQ_K : instruction.op === "jge" ? JGE_K : JSET_K;
      const jt = offset(instruction.then, index, labels);
      const jf = offset(instruction.else, index, labels);
      return [code, jt, jf, instruction.k];
    }
  }
}

/** Jumps are relative to the next instruction and can only go forward. */
function offset(target: Target, index: number, labels: ReadonlyMap<string, number>): number {
  if (target === "next") return 0;
  const destination = labels.get(target);
  if (destination === undefined) throw new Error(`unknown label: ${target}`);
  const distance = destination - (index + 1);
  if (distance < 0 || distance > MAX_JUMP) {
    throw new RangeError(`jump to ${target} out of range: ${String(distance)}`);
  }
  return distance;
}
