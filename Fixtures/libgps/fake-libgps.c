/*
 * A stand-in libgps for LibGPSTests: a library of a version this machine cannot have (Debian 12
 * has libgps.so.28 only), built with the soname a test chooses:
 *   clang -shared -fPIC -Wl,-soname,libgps.so.31 [-DWITHOUT_GPS_READ] [-DSOCKET_OFFSET=200]
 * Its gps_open connects to host:port as libgps does and keeps the socket as an int at
 * SOCKET_OFFSET of the handle (24, where gpsd 3.22 and 3.25 keep it, unless told otherwise);
 * it reads nothing (gps_read fails). With WITHOUT_GPS_READ it has no gps_read at all.
 */
#include <netdb.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#ifndef SOCKET_OFFSET
#define SOCKET_OFFSET 24
#endif

int gps_open(const char *host, const char *port, void *handle) {
    struct addrinfo hints, *found = NULL;
    memset(&hints, 0, sizeof hints);
    hints.ai_socktype = SOCK_STREAM;
    if (getaddrinfo(host, port, &hints, &found) != 0 || found == NULL) return -1;
    int fd = socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, found->ai_addr, found->ai_addrlen) != 0) {
        if (fd >= 0) close(fd);
        freeaddrinfo(found);
        return -1;
    }
    freeaddrinfo(found);
    memcpy((char *)handle + SOCKET_OFFSET, &fd, sizeof fd);
    return 0;
}

int gps_close(void *handle) {
    int fd;
    memcpy(&fd, (char *)handle + SOCKET_OFFSET, sizeof fd);
    int status = close(fd);
    /* Forgotten after the close, as libgps does; this also keeps close() from being a tail
     * call, so scripts/fd-audit sees it made from inside this library. */
    fd = -1;
    memcpy((char *)handle + SOCKET_OFFSET, &fd, sizeof fd);
    return status;
}

int gps_stream(void *handle, unsigned int flags, const void *device) {
    (void)handle;
    (void)flags;
    (void)device;
    return 0;
}

#ifndef WITHOUT_GPS_READ
int gps_read(void *handle, char *message, int size) {
    (void)handle;
    if (message != NULL && size > 0) message[0] = '\0';
    return -1;
}
#endif

const char *gps_errstr(const int code) {
    (void)code;
    return "fake libgps error";
}
