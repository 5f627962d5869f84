#ifndef HERE_WEATHER_CGPS_SHIM_H
#define HERE_WEATHER_CGPS_SHIM_H

#include <gps.h>

/// `gps_read` gained its message-buffer arguments in libgps API 7; one signature for Swift.
static inline int hw_gps_read(struct gps_data_t *data) {
#if GPSD_API_MAJOR_VERSION >= 7
    return gps_read(data, NULL, 0);
#else
    return gps_read(data);
#endif
}

/// The libgps API major version this build was compiled against.
static inline int hw_gps_api_major_version(void) { return GPSD_API_MAJOR_VERSION; }

#endif
