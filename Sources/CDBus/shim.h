#ifndef HERE_WEATHER_CDBUS_SHIM_H
#define HERE_WEATHER_CDBUS_SHIM_H

#include <dlfcn.h>
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/eventfd.h>
#include <systemd/sd-bus.h>

/*
 * sd-bus (libsystemd) is opened on first use (dlopen), not linked, like libcurl and libgps:
 * a run that asks neither NetworkManager nor GeoClue never loads it. Only the header comes
 * from libsystemd-dev; the library is libsystemd0, present on every systemd machine.
 * Swift calls only the hw_sd_* functions below; each finds its sd-bus function by name and
 * returns -ENOSYS when the library (or that function) is missing.
 */

static inline void *hw_sd_library(void) {
    static void *library;
    void *loaded = __atomic_load_n(&library, __ATOMIC_ACQUIRE);
    if (loaded == NULL) {
        loaded = dlopen("libsystemd.so.0", RTLD_LAZY | RTLD_LOCAL);
        if (loaded != NULL) __atomic_store_n(&library, loaded, __ATOMIC_RELEASE);
    }
    return loaded;
}

static inline void *hw_sd_symbol(const char *name) {
    void *library = hw_sd_library();
    return library == NULL ? NULL : dlsym(library, name);
}

/* The sd-bus function `name`, typed as sd-bus.h declares it; NULL when it is missing. */
#define HW_SD(name) ((__typeof__(&name))hw_sd_symbol(#name))
/* Calls `name` with the arguments, or evaluates to -ENOSYS when it is missing. */
#define HW_SD_CALL(name, ...) ({ __typeof__(&name) hw_function = HW_SD(name); \
    hw_function == NULL ? -ENOSYS : hw_function(__VA_ARGS__); })

/* Whether libsystemd could be loaded with every function used here (package libsystemd0). */
static inline bool hw_sd_is_available(void) {
    return HW_SD(sd_bus_open_system) != NULL && HW_SD(sd_bus_add_match_async) != NULL
        && HW_SD(sd_bus_message_get_error) != NULL && HW_SD(sd_bus_get_events) != NULL;
}

static inline int hw_sd_bus_open_system(sd_bus **bus) { return HW_SD_CALL(sd_bus_open_system, bus); }
/* A connection to the bus at `address` ("unix:path=/run/dbus/system_bus_socket"), as a client. */
static inline int hw_sd_bus_open_address(sd_bus **bus, const char *address) {
    int result = HW_SD_CALL(sd_bus_new, bus);
    if (result < 0) return result;
    result = HW_SD_CALL(sd_bus_set_address, *bus, address);
    if (result >= 0) result = HW_SD_CALL(sd_bus_set_bus_client, *bus, 1);
    if (result >= 0) result = HW_SD_CALL(sd_bus_start, *bus);
    if (result < 0) {
        __typeof__(&sd_bus_unref) unref = HW_SD(sd_bus_unref);
        if (unref != NULL) unref(*bus);
        *bus = NULL;
    }
    return result;
}
/*
 * Closes without flushing: sd_bus_flush (and so sd_bus_flush_close_unref) first waits for the
 * authentication to finish, up to sd-bus's 90 s timeout, and a bus daemon that accepts but
 * never answers (stopped, wedged) would hold the process that long. What was not written yet
 * is dropped: every call this program waits for has been answered or given up by then.
 */
static inline void hw_sd_bus_close_unref(sd_bus *bus) {
    __typeof__(&sd_bus_close) close = HW_SD(sd_bus_close);
    __typeof__(&sd_bus_unref) unref = HW_SD(sd_bus_unref);
    if (close != NULL) close(bus);
    if (unref != NULL) unref(bus);
}

/* The event loop: process what arrived, then poll the descriptor outside sd-bus. */
static inline int hw_sd_bus_process(sd_bus *bus) { return HW_SD_CALL(sd_bus_process, bus, NULL); }
static inline int hw_sd_bus_get_fd(sd_bus *bus) { return HW_SD_CALL(sd_bus_get_fd, bus); }
static inline int hw_sd_bus_get_events(sd_bus *bus) { return HW_SD_CALL(sd_bus_get_events, bus); }
static inline int hw_sd_bus_flush(sd_bus *bus) { return HW_SD_CALL(sd_bus_flush, bus); }

static inline int hw_sd_bus_message_new_method_call(sd_bus *bus, sd_bus_message **message, const char *destination,
                                                    const char *path, const char *interface, const char *member) {
    return HW_SD_CALL(sd_bus_message_new_method_call, bus, message, destination, path, interface, member);
}
static inline sd_bus_message *hw_sd_bus_message_ref(sd_bus_message *message) {
    __typeof__(&sd_bus_message_ref) function = HW_SD(sd_bus_message_ref);
    return function == NULL ? NULL : function(message);
}
static inline void hw_sd_bus_message_unref(sd_bus_message *message) {
    __typeof__(&sd_bus_message_unref) function = HW_SD(sd_bus_message_unref);
    if (function != NULL) function(message);
}

/*
 * The connection's wake-up descriptor (an eventfd, polled beside the bus socket): raised when
 * another thread has read the poller's message, sent one, or cancelled its wait.
 */
static inline int hw_wake_open(void) { return eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK); }
static inline void hw_wake_raise(int fd) { (void)eventfd_write(fd, 1); }
static inline void hw_wake_drain(int fd) { eventfd_t value; (void)eventfd_read(fd, &value); }

/* Writing arguments. */
static inline int hw_sd_bus_message_append_basic(sd_bus_message *message, char type, const void *value) {
    return HW_SD_CALL(sd_bus_message_append_basic, message, type, value);
}
static inline int hw_sd_bus_message_open_container(sd_bus_message *message, char type, const char *contents) {
    return HW_SD_CALL(sd_bus_message_open_container, message, type, contents);
}
static inline int hw_sd_bus_message_close_container(sd_bus_message *message) {
    return HW_SD_CALL(sd_bus_message_close_container, message);
}

/* Reading arguments. */
static inline int hw_sd_bus_message_peek_type(sd_bus_message *message, char *type, const char **contents) {
    return HW_SD_CALL(sd_bus_message_peek_type, message, type, contents);
}
static inline int hw_sd_bus_message_read_basic(sd_bus_message *message, char type, void *value) {
    return HW_SD_CALL(sd_bus_message_read_basic, message, type, value);
}
static inline int hw_sd_bus_message_enter_container(sd_bus_message *message, char type, const char *contents) {
    return HW_SD_CALL(sd_bus_message_enter_container, message, type, contents);
}
static inline int hw_sd_bus_message_exit_container(sd_bus_message *message) {
    return HW_SD_CALL(sd_bus_message_exit_container, message);
}

/* An error reply's name and message (NULL for any other message); owned by the message. */
static inline const char *hw_sd_bus_message_error_name(sd_bus_message *message) {
    __typeof__(&sd_bus_message_get_error) function = HW_SD(sd_bus_message_get_error);
    const sd_bus_error *error = function == NULL ? NULL : function(message);
    return error == NULL ? NULL : error->name;
}
static inline const char *hw_sd_bus_message_error_text(sd_bus_message *message) {
    __typeof__(&sd_bus_message_get_error) function = HW_SD(sd_bus_message_get_error);
    const sd_bus_error *error = function == NULL ? NULL : function(message);
    return error == NULL ? NULL : error->message;
}

/* A method call whose reply (or error, or sd-bus's own timeout error) goes to `callback`. */
static inline int hw_sd_bus_call_async(sd_bus *bus, sd_bus_slot **slot, sd_bus_message *message,
                                       sd_bus_message_handler_t callback, void *userdata, uint64_t usec) {
    return HW_SD_CALL(sd_bus_call_async, bus, slot, message, callback, userdata, usec);
}

/* A signal match; `installed` gets the bus's answer to AddMatch. */
static inline int hw_sd_bus_add_match_async(sd_bus *bus, sd_bus_slot **slot, const char *match,
                                            sd_bus_message_handler_t callback, sd_bus_message_handler_t installed,
                                            void *userdata) {
    return HW_SD_CALL(sd_bus_add_match_async, bus, slot, match, callback, installed, userdata);
}

/* Releasing a slot cancels its pending call or removes its match. */
static inline void hw_sd_bus_slot_unref(sd_bus_slot *slot) {
    __typeof__(&sd_bus_slot_unref) function = HW_SD(sd_bus_slot_unref);
    if (function != NULL) function(slot);
}

#endif
