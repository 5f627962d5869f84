/*
 * An LD_PRELOAD library that refuses every IPv4 and IPv6 socket with the errno named by
 * HW_SOCKET_ERRNO (24 EMFILE, 23 ENFILE, 12 ENOMEM), as the kernel refuses one when the
 * process or the system is out of descriptors or memory. Other sockets (Unix: D-Bus, the
 * resolver's helpers) are left alone, so only a web request meets the shortage. Built by
 * the tests (ResourceLimitTests) with the toolchain's clang, as count-ca-loads.c is.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <sys/socket.h>

int socket(int domain, int type, int protocol) {
    const char *code = getenv("HW_SOCKET_ERRNO");
    if (code != NULL && (domain == AF_INET || domain == AF_INET6)) {
        errno = atoi(code);
        return -1;
    }
    int (*real)(int, int, int) = (int (*)(int, int, int))dlsym(RTLD_NEXT, "socket");
    return real == NULL ? -1 : real(domain, type, protocol);
}
