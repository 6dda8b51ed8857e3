import { assemble, type Instruction } from "./classic-bpf.js";

/**
 * The seccomp program handed to `bwrap --seccomp FD`: everything is allowed except the ways a
 * sandboxed command could leave a privileged file behind in the writable workspace, plus the ways
 * around a filter that only knows one syscall table.
 *
 * Why seccomp and not the mounts: the workspace must stay writable, and the host runs what lands
 * there. When the harness runs as root, uid 0 inside the user namespace is host uid 0, so a file
 * made setuid in there is setuid-root on the host. Dropping capabilities does not help: the
 * owner of a file may always set S_ISUID on it, and the kernel keeps S_ISUID from the mode given
 * to open(O_CREAT), creat and mknod (verified as root on Linux 6.18).
 */

/** `struct seccomp_data` (linux/seccomp.h): `int nr; __u32 arch; __u64 ip; __u64 args[6];`. */
const NR_OFFSET = 0;
const ARCH_OFFSET = 4;
/** The low 32 bits of args[i] on a little-endian machine; every value we test fits in them. */
const argLow = (i: number): number => 16 + 8 * i;

/** linux/audit.h: EM_* | __AUDIT_ARCH_64BIT | __AUDIT_ARCH_LE. */
export const AUDIT_ARCH_X86_64 = 0xc000003e;
export const AUDIT_ARCH_AARCH64 = 0xc00000b7;

/** linux/seccomp.h return values; the low 16 bits of ERRNO carry the errno. */
export const SECCOMP_RET_KILL_PROCESS = 0x80000000;
export const SECCOMP_RET_ERRNO = 0x00050000;
export const SECCOMP_RET_ALLOW = 0x7fff0000;
/** asm-generic/errno-base.h and errno.h; x86_64 and aarch64 share them. */
export const EPERM = 1;
export const ENOSYS = 38;

/** Set in the syscall number by the x32 ABI, which shares AUDIT_ARCH_X86_64 with the native one. */
export const X32_SYSCALL_BIT = 0x40000000;
/** S_ISUID | S_ISGID. S_ISVTX (sticky) grants nothing and stays allowed. */
export const PRIVILEGED_MODE_BITS = 0o6000;
/** O_CREAT | __O_TMPFILE (asm-generic/fcntl.h; same values on x86_64 and aarch64). */
export const CREATING_OPEN_FLAGS = 0o100 | 0o20000000;
/** linux/sched.h. */
export const CLONE_NEWUSER = 0x10000000;
/** linux/socket.h address families. */
export const AF_UNIX = 1;
export const AF_VSOCK = 40;
/** SOCK_DGRAM's bit in the type: set in SOCK_DGRAM (2) and SOCK_RAW (3, which AF_UNIX makes a
 * datagram socket); clear in SOCK_STREAM (1) and SOCK_SEQPACKET (5), whose sendmsg refuses an
 * address. The type flags SOCK_NONBLOCK and SOCK_CLOEXEC lie far above it. */
export const SOCK_DGRAM_BIT = 2;

type SyscallName =
  | "chmod"
  | "fchmod"
  | "fchmodat"
  | "fchmodat2"
  | "creat"
  | "mknod"
  | "mknodat"
  | "open"
  | "openat"
  | "openat2"
  | "io_uring_setup"
  | "io_uring_enter"
  | "io_uring_register"
  | "clone"
  | "clone3"
  | "unshare"
  | "add_key"
  | "request_key"
  | "keyctl"
  | "socket"
  | "socketpair"
  | "userfaultfd"
  | "perf_event_open"
  | "bpf";

/**
 * arch/x86/entry/syscalls/syscall_64.tbl. fchmodat2 (Linux 6.6) is 452 on every architecture; a
 * kernel without it answers ENOSYS, so listing it costs nothing there.
 */
export const X86_64_SYSCALLS: Readonly<Record<SyscallName, number>> = {
  open: 2,
  socket: 41,
  socketpair: 53,
  clone: 56,
  creat: 85,
  chmod: 90,
  fchmod: 91,
  mknod: 133,
  openat: 257,
  mknodat: 259,
  fchmodat: 268,
  add_key: 248,
  request_key: 249,
  keyctl: 250,
  unshare: 272,
  perf_event_open: 298,
  bpf: 321,
  userfaultfd: 323,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  clone3: 435,
  openat2: 437,
  fchmodat2: 452,
};

/** include/uapi/asm-generic/unistd.h: no chmod, creat, mknod or open, only the *at forms. */
export const AARCH64_SYSCALLS: Readonly<Partial<Record<SyscallName, number>>> = {
  mknodat: 33,
  fchmod: 52,
  fchmodat: 53,
  openat: 56,
  unshare: 97,
  socket: 198,
  socketpair: 199,
  add_key: 217,
  request_key: 218,
  keyctl: 219,
  perf_event_open: 241,
  bpf: 280,
  userfaultfd: 282,
  clone: 220,
  io_uring_setup: 425,
  io_uring_enter: 426,
  io_uring_register: 427,
  clone3: 435,
  openat2: 437,
  fchmodat2: 452,
};

/** What a rule refuses; each syscall has exactly one. */
type Refusal =
  /** The mode argument asks for S_ISUID or S_ISGID: EPERM. */
  | { readonly kind: "privileged-mode"; readonly modeArg: number }
  /** The call creates (O_CREAT, O_TMPFILE) and its mode asks for S_ISUID or S_ISGID: EPERM. */
  | { readonly kind: "privileged-create"; readonly flagsArg: number; readonly modeArg: number }
  /** The clone flags ask for a new user namespace: EPERM. */
  | { readonly kind: "new-user-namespace"; readonly flagsArg: number }
  /** Always, with ENOSYS: "this kernel has no such call", so libc and libuv fall back. */
  | { readonly kind: "unavailable" }
  /** socket() in one of these address families: EPERM. */
  | { readonly kind: "socket-family"; readonly families: readonly number[] }
  /** socketpair(AF_UNIX, SOCK_DGRAM or SOCK_RAW): EPERM; its sendto() can name a socket file. */
  | { readonly kind: "datagram-pair" };

const RULES: readonly (readonly [SyscallName, Refusal])[] = [
  // The chmod family: `chmod 4755`, `chmod g+s`, `install -m 4755`, tar/cp/rsync preserving modes.
  ["chmod", { kind: "privileged-mode", modeArg: 1 }],
  ["fchmod", { kind: "privileged-mode", modeArg: 1 }],
  ["fchmodat", { kind: "privileged-mode", modeArg: 2 }],
  ["fchmodat2", { kind: "privileged-mode", modeArg: 2 }],
  // Creation with the bits already in the mode: the kernel keeps S_ISUID (umask 022 does not
  // touch it), so `open(p, O_CREAT|O_WRONLY, 04755)` alone leaves a setuid file.
  ["creat", { kind: "privileged-mode", modeArg: 1 }],
  ["mknod", { kind: "privileged-mode", modeArg: 1 }],
  ["mknodat", { kind: "privileged-mode", modeArg: 2 }],
  // Without O_CREAT or O_TMPFILE the mode is ignored (and may be garbage), so only creating opens
  // are judged. O_TMPFILE takes a mode without O_CREAT and linkat() can name the file later.
  ["open", { kind: "privileged-create", flagsArg: 1, modeArg: 2 }],
  ["openat", { kind: "privileged-create", flagsArg: 2, modeArg: 3 }],
  // openat2 keeps flags and mode in a struct open_how that seccomp cannot read; glibc and the
  // programs we run only use it opportunistically and fall back to openat on ENOSYS.
  ["openat2", { kind: "unavailable" }],
  // io_uring performs openat (with a mode), mkdirat, fsetxattr... in the kernel without passing
  // through seccomp at all. Docker's default profile blocks these three as well.
  ["io_uring_setup", { kind: "unavailable" }],
  ["io_uring_enter", { kind: "unavailable" }],
  ["io_uring_register", { kind: "unavailable" }],
  // A nested user namespace hands back every capability (CAP_FSETID, CAP_SETFCAP...) inside it.
  // Linux >= 5.12 refuses to map uid 0 there without CAP_SETFCAP in the parent, which --cap-drop
  // ALL removed, so today it yields no privileged file; blocking it, as Flatpak does, keeps that
  // true on older kernels and takes away a large kernel attack surface. clone3 hides its flags in
  // a struct, so it answers ENOSYS and glibc falls back to clone (Flatpak, CVE-2021-41133).
  ["clone", { kind: "new-user-namespace", flagsArg: 0 }],
  ["unshare", { kind: "new-user-namespace", flagsArg: 0 }],
  ["clone3", { kind: "unavailable" }],
  // The kernel keyring is not namespaced: a command would share the harness's session keyring
  // (and so its parent shell's), read the keys in it and plant new ones that outlive the run.
  // /proc/keys is masked for the same reason; Docker's default profile blocks these three too.
  ["add_key", { kind: "unavailable" }],
  ["request_key", { kind: "unavailable" }],
  ["keyctl", { kind: "unavailable" }],
  // Kernel attack surface a build has no use for, refused here rather than left to the host's
  // sysctls (vm.unprivileged_userfaultfd, kernel.perf_event_paranoid, unprivileged_bpf_disabled):
  // userfaultfd stalls a kernel copy mid-way for a race, and perf and eBPF are where local root
  // exploits keep coming from. Docker's default profile refuses all three too.
  ["userfaultfd", { kind: "unavailable" }],
  ["perf_event_open", { kind: "unavailable" }],
  ["bpf", { kind: "unavailable" }],
];

/**
 * Sockets. The empty network namespace confines AF_INET and the abstract UNIX sockets, but not a
 * UNIX socket file: connect() needs write permission on its inode, and a read-only mount takes
 * that only from files, directories and links. So with network off a command could still reach
 * any host service whose socket file lies outside the private /tmp and /run (Docker Desktop's
 * ~/.docker/desktop/docker.sock, LXD's, gpg-agent's, one a dev server put in the workspace):
 * no AF_UNIX socket() then, nor a datagram socketpair(), whose sendto() may name a socket file.
 * Stream pairs (libuv's child stdio, Python's socketpair()) cannot address anything and stay.
 * AF_VSOCK reaches the hypervisor and no namespace confines it: refused even with network on,
 * as Docker's default profile does.
 */
function socketRules(network: boolean): readonly (readonly [SyscallName, Refusal])[] {
  if (network) return [["socket", { kind: "socket-family", families: [AF_VSOCK] }]];
  return [
    ["socket", { kind: "socket-family", families: [AF_UNIX, AF_VSOCK] }],
    ["socketpair", { kind: "datagram-pair" }],
  ];
}

export interface SeccompFilterOptions {
  /**
   * Commands may use the network (`--network`): AF_UNIX sockets are then allowed. Off by default,
   * the strict filter.
   */
  readonly network?: boolean;
  /**
   * Let commands create user namespaces (bwrap or podman inside the sandbox, Chromium's own
   * sandbox when not root). Off by default; see the clone rule above.
   */
  readonly allowNestedUserNamespaces?: boolean;
}

/** Each architecture with a syscall table, by Node's `process.arch`. */
const ARCHITECTURES: Readonly<
  Record<
    string,
    {
      readonly auditArch: number;
      readonly table: Readonly<Partial<Record<SyscallName, number>>>;
      readonly hasX32: boolean;
    }
  >
> = Object.freeze({
  x64: { auditArch: AUDIT_ARCH_X86_64, table: X86_64_SYSCALLS, hasX32: true },
  arm64: { auditArch: AUDIT_ARCH_AARCH64, table: AARCH64_SYSCALLS, hasX32: false },
});

/** Whether seccompFilter has a program for `arch`, without assembling it. */
export function hasSeccompFilter(arch: string): boolean {
  return Object.hasOwn(ARCHITECTURES, arch);
}

/**
 * The cBPF program for Node's `process.arch`, or undefined for an architecture we have no table
 * for, so the caller can refuse to run rather than run unfiltered.
 */
export function seccompFilter(
  arch: string,
  options: SeccompFilterOptions = {},
): Uint8Array | undefined {
  // Own keys only: `constructor` or `toString` is no architecture.
  const architecture = hasSeccompFilter(arch) ? ARCHITECTURES[arch] : undefined;
  if (architecture === undefined) return undefined;
  const { auditArch, table, hasX32 } = architecture;
  return assemble(program(auditArch, table, hasX32, options));
}

interface PresentRule {
  readonly name: SyscallName;
  readonly nr: number;
  readonly refusal: Refusal;
}

function program(
  auditArch: number,
  table: Readonly<Partial<Record<SyscallName, number>>>,
  hasX32: boolean,
  options: SeccompFilterOptions,
): Instruction[] {
  const all = [...RULES, ...socketRules(options.network === true)];
  const rules = all.flatMap(([name, refusal]): PresentRule[] => {
    const nr = table[name];
    if (nr === undefined) return [];
    if (options.allowNestedUserNamespaces === true && refusal.kind === "new-user-namespace") {
      return [];
    }
    return [{ name, nr, refusal }];
  });
  // x32 reuses AUDIT_ARCH_X86_64 and sets bit 30 in the number (x32 chmod is 0x40000000|90).
  // nr -1 is what a tracer leaves to skip a call; the kernel answers it with ENOSYS anyway.
  const x32Dispatch: Instruction[] = hasX32
    ? [{ op: "jge", k: X32_SYSCALL_BIT, then: "x32", else: "next" }]
    : [];
  const x32Verdict: Instruction[] = hasX32
    ? [
        { op: "label", name: "x32" },
        { op: "jeq", k: 0xffffffff, then: "allow", else: "kill" },
      ]
    : [];
  return [
    // A syscall made through another ABI (int $0x80 on x86_64 is i386, with other numbers: 15 is
    // chmod there, rt_sigreturn here) would walk past every rule below. Kill, as libseccomp does.
    { op: "load", offset: ARCH_OFFSET },
    { op: "jeq", k: auditArch, then: "next", else: "kill" },
    { op: "load", offset: NR_OFFSET },
    ...x32Dispatch,
    ...rules.map(({ name, nr }): Instruction => ({ op: "jeq", k: nr, then: name, else: "next" })),
    { op: "return", value: SECCOMP_RET_ALLOW },
    ...x32Verdict,
    ...rules.flatMap(({ name, refusal }): Instruction[] => [
      { op: "label", name },
      ...body(refusal),
    ]),
    { op: "label", name: "allow" },
    { op: "return", value: SECCOMP_RET_ALLOW },
    { op: "label", name: "eperm" },
    { op: "return", value: SECCOMP_RET_ERRNO | EPERM },
    { op: "label", name: "kill" },
    { op: "return", value: SECCOMP_RET_KILL_PROCESS },
  ];
}

function body(refusal: Refusal): Instruction[] {
  switch (refusal.kind) {
    case "privileged-mode":
      return [
        { op: "load", offset: argLow(refusal.modeArg) },
        { op: "jset", k: PRIVILEGED_MODE_BITS, then: "eperm", else: "allow" },
      ];
    case "privileged-create":
      return [
        { op: "load", offset: argLow(refusal.flagsArg) },
        { op: "jset", k: CREATING_OPEN_FLAGS, then: "next", else: "allow" },
        { op: "load", offset: argLow(refusal.modeArg) },
        { op: "jset", k: PRIVILEGED_MODE_BITS, then: "eperm", else: "allow" },
      ];
    case "new-user-namespace":
      return [
        { op: "load", offset: argLow(refusal.flagsArg) },
        { op: "jset", k: CLONE_NEWUSER, then: "eperm", else: "allow" },
      ];
    case "unavailable":
      return [{ op: "return", value: SECCOMP_RET_ERRNO | ENOSYS }];
    case "socket-family":
      return [
        { op: "load", offset: argLow(0) },
        ...refusal.families.map((family): Instruction => ({
          op: "jeq",
          k: family,
          then: "eperm",
          else: "next",
        })),
        { op: "return", value: SECCOMP_RET_ALLOW },
      ];
    case "datagram-pair":
      return [
        { op: "load", offset: argLow(0) },
        { op: "jeq", k: AF_UNIX, then: "next", else: "allow" },
        { op: "load", offset: argLow(1) },
        { op: "jset", k: SOCK_DGRAM_BIT, then: "eperm", else: "allow" },
      ];
  }
}
