#ifndef HERE_WEATHER_CGPS_SHIM_H
#define HERE_WEATHER_CGPS_SHIM_H

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <gps.h>
#include <math.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/*
 * libgps is opened on first use (dlopen), not linked: runs that do not ask gpsd never load it
 * and the libraries it pulls in (D-Bus, systemd, libgcrypt, ...). Swift calls only the hw_gps_*
 * functions below, which find their libgps function by name.
 *
 * The library must be the one these headers describe (gps_data_t's layout changes with the API
 * version): its exact soname where known, else "libgps.so", which libgps-dev installs beside
 * these headers.
 */
static inline void *hw_gps_library(void) {
    static void *library;
    void *loaded = __atomic_load_n(&library, __ATOMIC_ACQUIRE);
    if (loaded == NULL) {
#if GPSD_API_MAJOR_VERSION == 11
        loaded = dlopen("libgps.so.28", RTLD_LAZY | RTLD_LOCAL);   /* gpsd 3.22 (Debian 12) */
#endif
        if (loaded == NULL) loaded = dlopen("libgps.so", RTLD_LAZY | RTLD_LOCAL);
        if (loaded != NULL) __atomic_store_n(&library, loaded, __ATOMIC_RELEASE);
    }
    return loaded;
}

static inline void *hw_gps_symbol(const char *name) {
    void *library = hw_gps_library();
    return library == NULL ? NULL : dlsym(library, name);
}

/* The libgps function `name`, typed as gps.h declares it; NULL when libgps is missing. */
#define HW_GPS(name) ((__typeof__(&name))hw_gps_symbol(#name))

/* Whether libgps could be loaded; every other call needs it. */
static inline bool hw_gps_is_available(void) { return hw_gps_library() != NULL; }

static inline int hw_gps_open(const char *host, const char *port, struct gps_data_t *data) {
    return HW_GPS(gps_open)(host, port, data);
}

static inline int hw_gps_close(struct gps_data_t *data) { return HW_GPS(gps_close)(data); }

/*
 * Waiting for gpsd: never libgps's gps_waiting. It waits with select()/pselect() on an fd_set,
 * and glibc aborts the whole process ("bit out of range 0 - FD_SETSIZE on fd_set") when the
 * socket's number is 1024 or more, as in any process with many descriptors open.
 *
 * Instead the socket is non-blocking (libgps 3.22 connects so; made sure here), the caller
 * waits with hw_gps_socket_readable (poll: any descriptor number), and after a hw_gps_read
 * that delivered a line reads again at once: libgps reads the socket in blocks and hands out
 * one line per gps_read, so more whole lines may sit in its buffer, where poll cannot see them
 * (gps_waiting checked that buffer first). A read with no whole line to hand out returns 0.
 */
static inline bool hw_gps_set_nonblocking(const struct gps_data_t *data) {
    int flags = fcntl(data->gps_fd, F_GETFL);
    return flags >= 0 && fcntl(data->gps_fd, F_SETFL, flags | O_NONBLOCK) == 0;
}

/* Whether gpsd's socket has data (or hung up, or failed: the next read says) within
 * `timeout_ms`; false on timeout and on a signal. */
static inline bool hw_gps_socket_readable(const struct gps_data_t *data, int timeout_ms) {
    struct pollfd descriptor = { .fd = data->gps_fd, .events = POLLIN, .revents = 0 };
    return poll(&descriptor, 1, timeout_ms) > 0;
}

/* After a failed hw_gps_read: whether gpsd's end closed the connection (end of file, or a
 * reset), looked at without taking any byte. False when the connection is still open (a
 * report libgps could not take, such as a line longer than its buffer). */
static inline bool hw_gps_peer_closed(const struct gps_data_t *data) {
    char byte;
    ssize_t count = recv(data->gps_fd, &byte, 1, MSG_PEEK | MSG_DONTWAIT);
    return count == 0 || (count < 0 && (errno == ECONNRESET || errno == ENOTCONN || errno == EPIPE));
}

/* NULL when libgps is missing. */
static inline const char *hw_gps_errstr(int code) {
    __typeof__(&gps_errstr) function = HW_GPS(gps_errstr);
    return function == NULL ? NULL : function(code);
}

/// `gps_read` gained its message-buffer arguments in libgps API 7; one signature for Swift.
static inline int hw_gps_read(struct gps_data_t *data) {
#if GPSD_API_MAJOR_VERSION >= 7
    return HW_GPS(gps_read)(data, NULL, 0);
#else
    return HW_GPS(gps_read)(data);
#endif
}

/// What one gps_read delivered, copied out of the large gps_data_t (whose `set` bits,
/// macros and nested arrays Swift handles poorly). Call right after hw_gps_read.
struct hw_gps_update {
    bool has_fix;            /* MODE_SET: a TPV report arrived */
    bool has_latlon;         /* LATLON_SET */
    int mode;                /* MODE_NO_FIX, MODE_2D, MODE_3D */
    int status;              /* STATUS_SIM (8) marks a simulator */
    double latitude, longitude, alt_msl;
    double eph, epx, epy;    /* metres; NaN when unknown */
    double hdop;
    bool has_time;           /* TIME_SET: the report had a time */
    double time;             /* seconds since 1970; 0 when the report had no time */
    bool has_devices;        /* DEVICELIST_SET: a DEVICES report arrived */
    int device_count;
    bool has_satellites;     /* SATELLITE_SET: a SKY report arrived */
    int satellites_visible, satellites_used;
    bool has_error;          /* ERROR_SET */
    bool has_version;        /* VERSION_SET: gpsd's greeting arrived */
    bool has_gst;            /* GST_SET: a GST (pseudorange noise) report arrived */
    double gst_time;         /* seconds since 1970 */
    double gst_lat_sigma, gst_lon_sigma;   /* metres, 1 sigma; NaN when unknown */
};

static inline void hw_gps_clear_set(struct gps_data_t *data) { data->set = 0; }

static inline struct hw_gps_update hw_gps_update(const struct gps_data_t *data) {
    struct hw_gps_update u;
    u.has_fix = (data->set & MODE_SET) != 0;
    u.has_latlon = (data->set & LATLON_SET) != 0;
    u.mode = data->fix.mode;
    u.status = data->fix.status;
    u.latitude = data->fix.latitude;
    u.longitude = data->fix.longitude;
    u.alt_msl = (data->set & ALTITUDE_SET) ? data->fix.altMSL : NAN;
    u.eph = data->fix.eph;
    u.epx = data->fix.epx;
    u.epy = data->fix.epy;
    u.hdop = data->dop.hdop;
    u.has_time = (data->set & TIME_SET) != 0;
    u.time = (data->set & TIME_SET) ? (double)data->fix.time.tv_sec + (double)data->fix.time.tv_nsec / 1e9 : 0;
    u.has_devices = (data->set & DEVICELIST_SET) != 0;
    u.device_count = data->devices.ndevices;
    u.has_satellites = (data->set & SATELLITE_SET) != 0;
    u.satellites_visible = data->satellites_visible;
    u.satellites_used = data->satellites_used;
    u.has_error = (data->set & ERROR_SET) != 0;
    u.has_version = (data->set & VERSION_SET) != 0;
    u.has_gst = (data->set & GST_SET) != 0;
    u.gst_time = u.has_gst ? (double)data->gst.utctime.tv_sec + (double)data->gst.utctime.tv_nsec / 1e9 : 0;
    u.gst_lat_sigma = u.has_gst ? data->gst.lat_err_deviation : NAN;
    u.gst_lon_sigma = u.has_gst ? data->gst.lon_err_deviation : NAN;
    return u;
}

/// Starts (JSON) or stops watching.
static inline int hw_gps_watch(struct gps_data_t *data, bool enable) {
    return HW_GPS(gps_stream)(data, enable ? (WATCH_ENABLE | WATCH_JSON) : WATCH_DISABLE, NULL);
}

/// The path of device `index` of the last DEVICES report ("" when out of range).
static inline const char *hw_gps_device_path(const struct gps_data_t *data, int index) {
    if (index < 0 || index >= data->devices.ndevices) return "";
    return data->devices.list[index].path;
}

/// The path of the device that shipped the last report.
static inline const char *hw_gps_report_device(const struct gps_data_t *data) { return data->dev.path; }

/// The libgps API major version this build was compiled against.
static inline int hw_gps_api_major_version(void) { return GPSD_API_MAJOR_VERSION; }

#endif
