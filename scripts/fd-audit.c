/*
 * An LD_PRELOAD library for scripts/fd-audit: finds descriptors closed by someone who does not
 * own them, in the processes whose /proc/self/exe contains $HW_FD_AUDIT_EXE (all when unset).
 *
 * Logged to $HW_FD_AUDIT_LOG (appended), each with the stack that did it:
 * - every close() that fails with EBADF, with the stack of the last successful close of that
 *   number: the two halves of a double close (the second close of a number not yet reused);
 * - every close of a socket libgps opened, by code outside libgps: someone closing the gpsd
 *   source's connection under it.
 *
 * Stacks are raw (binary+offset); symbolise with llvm-symbolizer or addr2line.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define SLOTS 65536
#define DEPTH 28

struct stack { int depth; pid_t thread; void *frames[DEPTH]; };

static struct stack last_close[SLOTS];
static unsigned char opened_by_libgps[SLOTS];
static int active = -1;
static char executable[512];
static __thread int inside;
static int (*real_close)(int);
static int (*real_socket)(int, int, int);

static int is_active(void) {
    if (active >= 0) return active;
    ssize_t length = readlink("/proc/self/exe", executable, sizeof executable - 1);
    executable[length > 0 ? length : 0] = 0;
    const char *wanted = getenv("HW_FD_AUDIT_EXE");
    active = wanted == NULL || strstr(executable, wanted) != NULL;
    return active;
}

static int in_libgps(void *address) {
    Dl_info info;
    return dladdr(address, &info) != 0 && info.dli_fname != NULL && strstr(info.dli_fname, "libgps") != NULL;
}

static void record(struct stack *stack) {
    stack->depth = backtrace(stack->frames, DEPTH);
    stack->thread = (pid_t)syscall(SYS_gettid);
}

static void report(const char *what, int fd, const struct stack *earlier) {
    const char *path = getenv("HW_FD_AUDIT_LOG");
    if (path == NULL) return;
    int out = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (out < 0) return;
    struct stack now;
    record(&now);
    dprintf(out, "=== %s: fd %d, pid %d, thread %d, %s\n", what, fd, getpid(), now.thread, executable);
    backtrace_symbols_fd(now.frames, now.depth, out);
    if (earlier != NULL && earlier->depth > 0) {
        dprintf(out, "--- the last successful close of fd %d (thread %d):\n", fd, earlier->thread);
        backtrace_symbols_fd(earlier->frames, earlier->depth, out);
    }
    real_close(out);
}

int socket(int domain, int type, int protocol) {
    if (real_socket == NULL) real_socket = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
    int fd = real_socket(domain, type, protocol);
    if (fd >= 0 && fd < SLOTS && !inside && is_active()) {
        inside = 1;
        opened_by_libgps[fd] = (unsigned char)in_libgps(__builtin_return_address(0));
        inside = 0;
    }
    return fd;
}

int close(int fd) {
    if (real_close == NULL) real_close = (int (*)(int))dlsym(RTLD_NEXT, "close");
    if (inside || !is_active()) return real_close(fd);
    inside = 1;   /* backtrace() may load libgcc_s, which closes files itself */
    int slot = fd >= 0 && fd < SLOTS;
    if (slot && opened_by_libgps[fd]) {
        if (!in_libgps(__builtin_return_address(0))) report("a libgps socket closed outside libgps", fd, NULL);
        opened_by_libgps[fd] = 0;
    }
    int result = real_close(fd);
    int code = errno;
    if (result == -1 && code == EBADF) {
        report("close() of a descriptor that was not open (EBADF)", fd, slot ? &last_close[fd] : NULL);
    } else if (result == 0 && slot) {
        record(&last_close[fd]);   /* racy with other threads: good enough for a diagnosis */
    }
    inside = 0;
    errno = code;
    return result;
}
