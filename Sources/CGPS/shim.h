#ifndef HERE_WEATHER_CGPS_SHIM_H
#define HERE_WEATHER_CGPS_SHIM_H

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * libgps without its header: here-weather talks to whichever libgps the machine has (gpsd 3.22
 * to 3.27: libgps.so.28 to .32) without compiling against any one version's
 * `struct gps_data_t`, whose layout changes with every API version (a binary built against
 * API 11 that handed its struct to API 14's library died: "stack smashing detected").
 *
 * - The handle is opaque: a zeroed buffer of HW_GPS_HANDLE_SIZE bytes, larger than any
 *   version's struct (the test LibGPSHeaderTests compiles Fixtures/libgps/probe.c against
 *   each version's real gps.h and checks it, with margin).
 * - Only functions whose signatures are the same in every version are called: gps_open,
 *   gps_stream (WATCH_ENABLE | WATCH_JSON), gps_read with its message buffer (each report's
 *   JSON line, decoded in Swift), gps_close and gps_errstr. Their types are below; the probe
 *   checks each header declares them so (a `void *` here is that version's
 *   `struct gps_data_t *`; `unsigned int` its `watch_t`; `const void *` its device string).
 * - One field is read: the socket (gps_fd), for poll(), at the offset the library's version
 *   keeps it (the table in LibGPSVersion.swift, checked against the headers by the same
 *   test), and only once it is known to be a socket connected to gpsd's port.
 *
 * The library is opened on first use (dlopen), not linked: runs that do not ask gpsd never
 * load it nor the libraries it pulls in (D-Bus, systemd, ...).
 */

/* The handle's size: gps_data_t is 24,496 bytes in gpsd 3.22, 29,224 in 3.25, 38,488 in 3.27. */
#define HW_GPS_HANDLE_SIZE 65536
/* The message buffer gps_read copies each line into: libgps's own line buffer is
 * GPS_JSON_RESPONSE_MAX * 2 bytes (8,192 in gpsd 3.22, 20,480 from 3.25 on). A longer line is
 * cut by gps_read and then is not JSON: an ordinary unreadable report. */
#define HW_GPS_MESSAGE_SIZE 32768

/* gps_stream's flags, the same in every version's gps.h. */
#define HW_GPS_WATCH_ENABLE 0x000001u
#define HW_GPS_WATCH_DISABLE 0x000002u
#define HW_GPS_WATCH_JSON 0x000010u

typedef int (*hw_gps_open_fn)(const char *host, const char *port, void *handle);
typedef int (*hw_gps_close_fn)(void *handle);
typedef int (*hw_gps_stream_fn)(void *handle, unsigned int flags, const void *device);
typedef int (*hw_gps_read_fn)(void *handle, char *message, int message_size);
typedef const char *(*hw_gps_errstr_fn)(int code);

/* The libgps functions here-weather calls, found by name in one loaded library. */
struct hw_gps_functions {
    hw_gps_open_fn open;
    hw_gps_close_fn close;
    hw_gps_stream_fn stream;
    hw_gps_read_fn read;
    hw_gps_errstr_fn errstr;
};

/* The functions of `library` (a dlopen handle); NULL fields for those it lacks. */
static inline struct hw_gps_functions hw_gps_functions_of(void *library) {
    struct hw_gps_functions functions = {
        (hw_gps_open_fn)dlsym(library, "gps_open"),
        (hw_gps_close_fn)dlsym(library, "gps_close"),
        (hw_gps_stream_fn)dlsym(library, "gps_stream"),
        (hw_gps_read_fn)dlsym(library, "gps_read"),
        (hw_gps_errstr_fn)dlsym(library, "gps_errstr"),
    };
    return functions;
}

/* glibc declares dlinfo only under _GNU_SOURCE, which Swift's Glibc module is not built with. */
extern int dlinfo(void *__restrict handle, int request, void *__restrict info);
#define HW_RTLD_DI_LINKMAP 2

/* The path the loader opened for `library` ("/lib/x86_64-linux-gnu/libgps.so.30"); NULL if unknown. */
static inline const char *hw_dl_path(void *library) {
    struct link_map *map = NULL;
    if (dlinfo(library, HW_RTLD_DI_LINKMAP, &map) != 0 || map == NULL || map->l_name == NULL) return NULL;
    return map->l_name;
}

/*
 * The soname written in the ELF file at `path` (DT_SONAME: "libgps.so.30"), copied into
 * `soname` (NUL-terminated); false when the file is not a 64-bit little-endian ELF shared
 * object with one, or cannot be read. Read from the file, not from the loader's memory, whose
 * dynamic section a loader may or may not have relocated.
 */
static inline bool hw_elf_soname(const char *path, char *soname, size_t size) {
    if (size < 2) return false;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false;
    bool found = false;
    ElfW(Ehdr) header;
    if (pread(fd, &header, sizeof header, 0) != (ssize_t)sizeof header || memcmp(header.e_ident, ELFMAG, SELFMAG) != 0
        || header.e_ident[EI_CLASS] != ELFCLASS64 || header.e_ident[EI_DATA] != ELFDATA2LSB
        || header.e_phentsize != sizeof(ElfW(Phdr)) || header.e_phnum == 0 || header.e_phnum > 64) {
        close(fd);
        return false;
    }
    ElfW(Phdr) segments[64];
    size_t bytes = (size_t)header.e_phnum * sizeof(ElfW(Phdr));
    if (pread(fd, segments, bytes, (off_t)header.e_phoff) != (ssize_t)bytes) {
        close(fd);
        return false;
    }
    const ElfW(Phdr) *dynamic = NULL;
    for (int i = 0; i < header.e_phnum; i++) {
        if (segments[i].p_type == PT_DYNAMIC) dynamic = &segments[i];
    }
    if (dynamic != NULL) {
        ElfW(Addr) strtab = 0;
        ElfW(Xword) name = 0;
        bool hasName = false;
        size_t count = dynamic->p_filesz / sizeof(ElfW(Dyn));
        for (size_t i = 0; i < count && i < 1024; i++) {
            ElfW(Dyn) entry;
            off_t at = (off_t)(dynamic->p_offset + i * sizeof entry);
            if (pread(fd, &entry, sizeof entry, at) != (ssize_t)sizeof entry || entry.d_tag == DT_NULL) break;
            if (entry.d_tag == DT_STRTAB) strtab = entry.d_un.d_ptr;
            if (entry.d_tag == DT_SONAME) { name = entry.d_un.d_val; hasName = true; }
        }
        /* The string table's file offset: through the loadable segment that holds it. */
        for (int i = 0; hasName && strtab != 0 && i < header.e_phnum; i++) {
            const ElfW(Phdr) *load = &segments[i];
            if (load->p_type != PT_LOAD || strtab < load->p_vaddr || strtab - load->p_vaddr >= load->p_filesz) continue;
            off_t offset = (off_t)(load->p_offset + (strtab - load->p_vaddr) + name);
            ssize_t got = pread(fd, soname, size - 1, offset);
            if (got > 0) {
                soname[got] = '\0';
                found = strnlen(soname, (size_t)got) < (size_t)got;   /* a whole string, not cut */
            }
            break;
        }
    }
    close(fd);
    return found;
}

/*
 * The socket libgps keeps in `handle` at `offset`, `width` bytes wide (4: an int; 8: gpsd
 * 3.27's intptr_t), when it is one: an open socket whose peer's port is `port`. -1 otherwise
 * (another version's layout, or a library that opened no socket).
 */
static inline int hw_gps_socket(const void *handle, size_t offset, size_t width, int port) {
    if (offset + width > HW_GPS_HANDLE_SIZE) return -1;
    int64_t value;
    if (width == 4) {
        int32_t narrow;
        memcpy(&narrow, (const char *)handle + offset, sizeof narrow);
        value = narrow;
    } else if (width == 8) {
        memcpy(&value, (const char *)handle + offset, sizeof value);
    } else {
        return -1;
    }
    if (value < 0 || value > INT32_MAX) return -1;
    int fd = (int)value;
    struct stat status;
    if (fstat(fd, &status) != 0 || !S_ISSOCK(status.st_mode)) return -1;
    struct sockaddr_storage peer;
    socklen_t length = sizeof peer;
    if (getpeername(fd, (struct sockaddr *)&peer, &length) != 0) return -1;
    int peerPort = -1;
    if (peer.ss_family == AF_INET) peerPort = ntohs(((struct sockaddr_in *)&peer)->sin_port);
    if (peer.ss_family == AF_INET6) peerPort = ntohs(((struct sockaddr_in6 *)&peer)->sin6_port);
    return peerPort == port ? fd : -1;
}

/*
 * Waiting for gpsd: never libgps's gps_waiting. It waits with select()/pselect() on an fd_set,
 * and glibc aborts the whole process ("bit out of range 0 - FD_SETSIZE on fd_set") when the
 * socket's number is 1024 or more, as in any process with many descriptors open.
 *
 * Instead the socket is non-blocking, the caller waits with hw_gps_socket_readable (poll: any
 * descriptor number), and after a gps_read that delivered a line reads again at once: libgps
 * reads the socket in blocks and hands out one line per gps_read, so more whole lines may sit
 * in its buffer, where poll cannot see them (gps_waiting checked that buffer first). A read
 * with no whole line to hand out returns 0.
 */
static inline bool hw_gps_set_nonblocking(int fd) {
    int flags = fcntl(fd, F_GETFL);
    return flags >= 0 && fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

/* Whether gpsd's socket has data (or hung up, or failed: the next read says) within
 * `timeout_ms`; false on timeout and on a signal. */
static inline bool hw_gps_socket_readable(int fd, int timeout_ms) {
    struct pollfd descriptor = { .fd = fd, .events = POLLIN, .revents = 0 };
    return poll(&descriptor, 1, timeout_ms) > 0;
}

/* After a failed gps_read: whether gpsd's end closed the connection (end of file, or a
 * reset), looked at without taking any byte. False when the connection is still open (a
 * report libgps could not take, such as a line longer than its buffer). */
static inline bool hw_gps_peer_closed(int fd) {
    char byte;
    ssize_t count = recv(fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return count == 0 || (count < 0 && (errno == ECONNRESET || errno == ENOTCONN || errno == EPIPE));
}

#endif
