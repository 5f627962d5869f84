/*
 * Checks one libgps version's real gps.h against what here-weather assumes (Sources/CGPS/shim.h):
 * built with -I <that version's folder> -I Sources/CGPS by LibGPSHeaderTests, it fails to
 * compile when a function here-weather calls has another signature or a WATCH flag another
 * value, and prints what the test compares with LibGPSVersion.supported:
 *   api=14 size=29224 socket_offset=24 socket_width=4
 */
#include <gps.h>
#include <stddef.h>
#include <stdio.h>
#include "shim.h"

#define SAME(a, b) __builtin_types_compatible_p(__typeof__(a), b)

/* Each function as shim.h calls it, with `void *` for struct gps_data_t *. */
_Static_assert(SAME(&gps_open, int (*)(const char *, const char *, struct gps_data_t *)), "gps_open");
_Static_assert(SAME(&gps_close, int (*)(struct gps_data_t *)), "gps_close");
_Static_assert(SAME(&gps_read, int (*)(struct gps_data_t *, char *, int)), "gps_read");
_Static_assert(SAME(&gps_errstr, const char *(*)(const int)), "gps_errstr");
/* gps_stream: (unsigned int, void *) up to API 11; (watch_t = uint32_t, const char *) since. */
_Static_assert(SAME(&gps_stream, int (*)(struct gps_data_t *, unsigned int, void *))
               || SAME(&gps_stream, int (*)(struct gps_data_t *, uint32_t, const char *)), "gps_stream");
_Static_assert(sizeof(unsigned int) == sizeof(uint32_t), "watch_t");

_Static_assert(WATCH_ENABLE == HW_GPS_WATCH_ENABLE, "WATCH_ENABLE");
_Static_assert(WATCH_DISABLE == HW_GPS_WATCH_DISABLE, "WATCH_DISABLE");
_Static_assert(WATCH_JSON == HW_GPS_WATCH_JSON, "WATCH_JSON");

int main(void) {
    struct gps_data_t data;
    printf("api=%d size=%zu socket_offset=%zu socket_width=%zu\n", GPSD_API_MAJOR_VERSION, sizeof(struct gps_data_t),
           offsetof(struct gps_data_t, gps_fd), sizeof data.gps_fd);
    return 0;
}
