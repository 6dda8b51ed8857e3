/* Test fixture for tests/adapters/sandbox/bubblewrap-hardening.test.ts, compiled there into a temp
 * directory with the host's cc (never committed as a binary). Each way tries, with raw syscall()
 * or inline asm so that no libc wrapper can hide the attempt, to leave a setuid or setgid file
 * behind; the test then checks on the host that none was left. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <linux/io_uring.h>
#include <sys/mman.h>

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif

static int report(const char *what, long rc) {
  if (rc < 0) printf("%s -> -1 %s\n", what, strerror(errno));
  else printf("%s -> %ld\n", what, rc);
  return rc < 0;
}

static long make_plain(const char *path) {
  long fd = syscall(SYS_openat, AT_FDCWD, path, O_CREAT | O_WRONLY | O_TRUNC, 0755);
  if (fd >= 0) close((int)fd);
  return fd;
}


/* IORING_OP_OPENAT with O_CREAT and mode 04755, from raw syscalls (no liburing): the open runs in
 * the kernel's io_uring worker, never as an openat syscall, so seccomp never sees its mode. */
static long uring_open(const char *path) {
  struct io_uring_params p; memset(&p, 0, sizeof p);
  long fd = syscall(SYS_io_uring_setup, 4, &p);
  if (report("io_uring_setup", fd)) return -1;
  char *sq = mmap(0, p.sq_off.array + p.sq_entries * sizeof(unsigned), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, (int)fd, IORING_OFF_SQ_RING);
  char *cq = mmap(0, p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, (int)fd, IORING_OFF_CQ_RING);
  struct io_uring_sqe *sqes = mmap(0, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, (int)fd, IORING_OFF_SQES);
  if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED) { perror("mmap"); return -1; }
  memset(&sqes[0], 0, sizeof sqes[0]);
  sqes[0].opcode = IORING_OP_OPENAT;
  sqes[0].fd = AT_FDCWD;
  sqes[0].addr = (unsigned long)path;
  sqes[0].len = 04755;
  sqes[0].open_flags = O_CREAT | O_WRONLY;
  ((unsigned *)(sq + p.sq_off.array))[0] = 0;
  __atomic_store_n((unsigned *)(sq + p.sq_off.tail), 1, __ATOMIC_RELEASE);
  if (report("io_uring_enter", syscall(SYS_io_uring_enter, fd, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0))) return -1;
  struct io_uring_cqe *cqe = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
  long res = cqe[0].res;
  if (res < 0) { errno = (int)-res; res = -1; }
  return report("IORING_OP_OPENAT(O_CREAT, 04755)", res);
}

int main(int argc, char **argv) {
  if (argc != 3) { fprintf(stderr, "usage: mkpriv <way> <path>\n"); return 2; }
  const char *way = argv[1], *path = argv[2];
  if (!strcmp(way, "fchmodat")) { make_plain(path); return report("fchmodat(04755)", syscall(SYS_fchmodat, AT_FDCWD, path, 04755, 0)); }
  if (!strcmp(way, "fchmodat-sgid")) { make_plain(path); return report("fchmodat(02755)", syscall(SYS_fchmodat, AT_FDCWD, path, 02755, 0)); }
  if (!strcmp(way, "fchmodat2")) { make_plain(path); return report("fchmodat2(04755)", syscall(SYS_fchmodat2, AT_FDCWD, path, 04755, 0)); }
  if (!strcmp(way, "fchmod")) {
    long fd = syscall(SYS_openat, AT_FDCWD, path, O_CREAT | O_WRONLY, 0755);
    return report("fchmod(04755)", syscall(SYS_fchmod, fd, 04755));
  }
  if (!strcmp(way, "openat")) return report("openat(O_CREAT, 04755)", syscall(SYS_openat, AT_FDCWD, path, O_CREAT | O_WRONLY, 04755));
  if (!strcmp(way, "openat2")) {
    struct open_how how = { .flags = O_CREAT | O_WRONLY, .mode = 04755 };
    return report("openat2(O_CREAT, 04755)", syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof how));
  }
  if (!strcmp(way, "tmpfile")) {
    /* O_TMPFILE takes the mode without O_CREAT; then give the inode a name. */
    char dir[4096]; snprintf(dir, sizeof dir, "%s", path); char *slash = strrchr(dir, '/'); if (slash) *slash = 0; else strcpy(dir, ".");
    long fd = syscall(SYS_openat, AT_FDCWD, dir, O_TMPFILE | O_WRONLY, 04755);
    if (report("openat(O_TMPFILE, 04755)", fd)) return 1;
    char proc[64]; snprintf(proc, sizeof proc, "/proc/self/fd/%ld", fd);
    return report("linkat(tmpfile)", syscall(SYS_linkat, AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW));
  }
  if (!strcmp(way, "mknodat")) return report("mknodat(S_IFREG|04755)", syscall(SYS_mknodat, AT_FDCWD, path, S_IFREG | 04755, 0));
  if (!strcmp(way, "io_uring")) return uring_open(path) != 0;
  /* The session keyring is the harness's (and its parent shell's): the kernel does not namespace it. */
  /* Exploit primitives with no use in a build: the answer must not depend on the host's sysctls. */
  if (!strcmp(way, "kernel-surface")) {
    int failed = report("userfaultfd", syscall(SYS_userfaultfd, 0));
    struct { unsigned type, size; unsigned long long config; char rest[104]; } attr;
    memset(&attr, 0, sizeof attr); attr.type = 1 /* PERF_TYPE_SOFTWARE */; attr.size = sizeof attr;
    failed &= report("perf_event_open", syscall(SYS_perf_event_open, &attr, 0, -1, -1, 0));
    failed &= report("bpf", syscall(SYS_bpf, 0, NULL, 0));
    return failed;
  }
  if (!strcmp(way, "keyring")) {
    int failed = report("keyctl(GET_KEYRING_ID, session)", syscall(SYS_keyctl, 0, -3, 0));
    failed &= report("add_key(user, session)", syscall(SYS_add_key, "user", path, "x", 1, -3));
    failed &= report("request_key(user, session)", syscall(SYS_request_key, "user", path, NULL, -3));
    return failed; /* 1 when every call was refused, as for the other ways */
  }
  /* x86_64 only: the legacy calls arm64 lacks, the x32 ABI and i386 int $0x80. */
#ifdef __x86_64__
  if (!strcmp(way, "chmod")) { make_plain(path); return report("chmod(04755)", syscall(SYS_chmod, path, 04755)); }
  /* The mode's upper 32 bits are garbage to the kernel (umode_t); the filter must still see S_ISUID. */
  if (!strcmp(way, "chmod-highbits")) { make_plain(path); return report("chmod(0xffffffff00004755)", syscall(SYS_chmod, path, (0xffffffff00000000UL | 04755))); }
  if (!strcmp(way, "open")) return report("open(O_CREAT, 04755)", syscall(SYS_open, path, O_CREAT | O_WRONLY, 04755));
  if (!strcmp(way, "creat")) return report("creat(04755)", syscall(SYS_creat, path, 04755));
  if (!strcmp(way, "mknod")) return report("mknod(S_IFREG|04755)", syscall(SYS_mknod, path, S_IFREG | 04755, 0));
  if (!strcmp(way, "x32-chmod")) { make_plain(path); return report("x32 chmod(04755)", syscall(0x40000000 | 90, path, 04755)); }
  if (!strcmp(way, "i386-chmod")) {
    /* int $0x80 takes the i386 ABI (AUDIT_ARCH_I386, chmod = 15) from a 64-bit process; the path
     * must be addressable in 32 bits, so copy it to a static buffer (non-PIE link keeps it low). */
    static char low[4096]; snprintf(low, sizeof low, "%s", path); make_plain(path);
    long rc;
    __asm__ volatile("int $0x80" : "=a"(rc) : "a"(15), "b"(low), "c"(04755) : "memory");
    if (rc < 0) { errno = (int)-rc; rc = -1; }
    return report("i386 int80 chmod(04755)", rc);
  }
  /* Harmless probes of the same two entries (getpid: i386 20, x32 39), run outside any sandbox:
   * a printed answer, even ENOSYS, means this kernel's syscall entry took the call, so a seccomp
   * filter would see it; a fault means the host never delivers that ABI at all. */
  if (!strcmp(way, "x32-probe")) return report("x32 getpid", syscall(0x40000000 | 39));
  if (!strcmp(way, "i386-probe")) {
    long rc;
    __asm__ volatile("int $0x80" : "=a"(rc) : "a"(20) : "memory");
    if (rc < 0) { errno = (int)-rc; rc = -1; }
    return report("i386 int80 getpid", rc);
  }
#endif
  fprintf(stderr, "unknown way %s\n", way);
  return 2;
}
