#ifndef HERE_WEATHER_CCURL_SHIM_H
#define HERE_WEATHER_CCURL_SHIM_H

#include <curl/curl.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <string.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

/*
 * libcurl is opened on first use (dlopen), not linked: a run that answers from the cache, or
 * makes no web request at all, never pays for loading libcurl and the two dozen libraries it
 * pulls in (TLS, Kerberos, LDAP, SSH, ...), which took most of here-weather's start-up time.
 * Swift calls only the hw_curl_* functions below; each finds its libcurl function by name.
 */

/* dlerror()'s words for the first dlopen of libcurl that failed ("" when none did): "cannot
 * open shared object file: No such file or directory" when it is not installed, "Too many
 * open files" or "Cannot allocate memory" when it is but could not be loaded. */
static inline char *hw_curl_dlopen_error(void) {
    static char text[256];
    return text;
}

static inline void *hw_curl_library(void) {
    static void *library;
    void *loaded = __atomic_load_n(&library, __ATOMIC_ACQUIRE);
    if (loaded == NULL) {
        loaded = dlopen("libcurl.so.4", RTLD_LAZY | RTLD_LOCAL);
        if (loaded == NULL && hw_curl_dlopen_error()[0] == 0) {
            const char *text = dlerror();
            if (text != NULL) snprintf(hw_curl_dlopen_error(), 256, "%s", text);
        }
        if (loaded == NULL) loaded = dlopen("libcurl.so", RTLD_LAZY | RTLD_LOCAL);
        if (loaded != NULL) __atomic_store_n(&library, loaded, __ATOMIC_RELEASE);
    }
    return loaded;
}

/* Whether libcurl is loaded; and why it could not be (hw_curl_dlopen_error). */
static inline bool hw_curl_is_loaded(void) { return hw_curl_library() != NULL; }
static inline const char *hw_curl_load_error(void) { return hw_curl_dlopen_error(); }

static inline void *hw_curl_symbol(const char *name) {
    void *library = hw_curl_library();
    return library == NULL ? NULL : dlsym(library, name);
}

/* The libcurl function `name`, typed as curl.h declares it; NULL when libcurl is missing. */
#define HW_CURL(name) ((__typeof__(&name))hw_curl_symbol(#name))

/* Whether libcurl could be loaded (package libcurl4 on Debian and Ubuntu). */
static inline bool hw_curl_is_available(void) { return hw_curl_library() != NULL; }

/* Once per process, before any other call. */
static inline CURLcode hw_curl_global_init(void) {
    __typeof__(&curl_global_init) function = HW_CURL(curl_global_init);
    return function == NULL ? CURLE_FAILED_INIT : function(CURL_GLOBAL_DEFAULT);
}

/* NULL when libcurl is missing or cannot start; the other calls need a handle from here. */
static inline CURL *hw_curl_easy_init(void) {
    __typeof__(&curl_easy_init) function = HW_CURL(curl_easy_init);
    return function == NULL ? NULL : function();
}

static inline CURLcode hw_curl_easy_perform(CURL *handle) { return HW_CURL(curl_easy_perform)(handle); }
static inline void hw_curl_easy_cleanup(CURL *handle) { HW_CURL(curl_easy_cleanup)(handle); }
static inline const char *hw_curl_easy_strerror(CURLcode code) { return HW_CURL(curl_easy_strerror)(code); }

static inline struct curl_slist *hw_curl_slist_append(struct curl_slist *list, const char *text) {
    return HW_CURL(curl_slist_append)(list, text);
}

static inline void hw_curl_slist_free_all(struct curl_slist *list) { HW_CURL(curl_slist_free_all)(list); }

/* curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot call: typed shims. */

static inline CURLcode hw_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return HW_CURL(curl_easy_setopt)(handle, option, value);
}

static inline CURLcode hw_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return HW_CURL(curl_easy_setopt)(handle, option, value);
}

static inline CURLcode hw_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return HW_CURL(curl_easy_setopt)(handle, option, value);
}

static inline CURLcode hw_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return HW_CURL(curl_easy_setopt)(handle, option, value);
}

static inline CURLcode hw_curl_setopt_write_function(CURL *handle, CURLoption option, curl_write_callback callback) {
    return HW_CURL(curl_easy_setopt)(handle, option, callback);
}

static inline CURLcode hw_curl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback) {
    return HW_CURL(curl_easy_setopt)(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode hw_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return HW_CURL(curl_easy_getinfo)(handle, info, value);
}

/*
 * The multi interface: every transfer of the process runs on one multi handle (CurlSession),
 * which keeps the connection cache, the DNS cache and, with libcurl 7.87 or later and OpenSSL,
 * the CA store loaded once for all transfers (CURLOPT_CA_CACHE_TIMEOUT).
 */
static inline CURLM *hw_curl_multi_init(void) {
    __typeof__(&curl_multi_init) function = HW_CURL(curl_multi_init);
    return function == NULL ? NULL : function();
}

static inline CURLMcode hw_curl_multi_add_handle(CURLM *multi, CURL *handle) { return HW_CURL(curl_multi_add_handle)(multi, handle); }
static inline CURLMcode hw_curl_multi_remove_handle(CURLM *multi, CURL *handle) { return HW_CURL(curl_multi_remove_handle)(multi, handle); }
static inline CURLMcode hw_curl_multi_perform(CURLM *multi, int *running) { return HW_CURL(curl_multi_perform)(multi, running); }

/* Waits for activity on the multi's sockets, a wake-up or `timeout_ms`, whichever is first. */
static inline CURLMcode hw_curl_multi_poll(CURLM *multi, int timeout_ms) {
    return HW_CURL(curl_multi_poll)(multi, NULL, 0, timeout_ms, NULL);
}

/* Ends a hw_curl_multi_poll early; callable from any thread. */
static inline CURLMcode hw_curl_multi_wakeup(CURLM *multi) { return HW_CURL(curl_multi_wakeup)(multi); }

/* The next finished transfer, if any: its handle and result. */
static inline bool hw_curl_multi_next_done(CURLM *multi, CURL **handle, CURLcode *result) {
    int queued = 0;
    CURLMsg *message;
    while ((message = HW_CURL(curl_multi_info_read)(multi, &queued)) != NULL) {
        if (message->msg != CURLMSG_DONE) continue;
        *handle = message->easy_handle;
        *result = message->data.result;
        return true;
    }
    return false;
}

/*
 * Only http and https for the request; redirects from an https request may only go to https,
 * so no redirect can downgrade a secure request to plain http (where anyone on the path could
 * read the request, and any key in it, or change the answer).
 */
static inline void hw_curl_restrict_to_http(CURL *handle, bool request_is_https) {
#if LIBCURL_VERSION_NUM >= 0x075500
    hw_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "http,https");
    hw_curl_setopt_string(handle, CURLOPT_REDIR_PROTOCOLS_STR, request_is_https ? "https" : "http,https");
#else
    hw_curl_setopt_long(handle, CURLOPT_PROTOCOLS, (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
    hw_curl_setopt_long(handle, CURLOPT_REDIR_PROTOCOLS,
                        request_is_https ? (long)CURLPROTO_HTTPS : (long)(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
}

/*
 * Preconnect (CurlPreconnects): a connect-only transfer opens the TCP connection to the weather
 * host while the location is asked for, and the weather request adopts that socket. libcurl
 * 7.88 never reuses a connect-only connection itself (nor one whose transfer a pre-request
 * callback aborted, on HTTP/1.1), so the socket is taken out (dup) and handed back through
 * CURLOPT_OPENSOCKETFUNCTION, with CURLOPT_SOCKOPTFUNCTION saying it is already connected.
 */

/* The connect-only transfer's socket, duplicated (close-on-exec), and its peer; -1 when none. */
static inline int hw_curl_take_socket(CURL *handle, struct sockaddr_storage *peer, socklen_t *peer_length) {
    curl_socket_t socket = CURL_SOCKET_BAD;
    if (HW_CURL(curl_easy_getinfo)(handle, CURLINFO_ACTIVESOCKET, &socket) != CURLE_OK || socket == CURL_SOCKET_BAD) return -1;
    *peer_length = sizeof(*peer);
    if (getpeername(socket, (struct sockaddr *)peer, peer_length) != 0) return -1;
    return fcntl(socket, F_DUPFD_CLOEXEC, 0);
}

/* Whether a parked socket is still connected with nothing to read: a TLS server sends
 * nothing before the client's hello, so anything readable is its end or an error. */
static inline bool hw_socket_is_idle(int socket) {
    struct pollfd poller = { .fd = socket, .events = POLLIN, .revents = 0 };
    int error = 0;
    socklen_t length = sizeof(error);
    if (getsockopt(socket, SOL_SOCKET, SO_ERROR, &error, &length) != 0 || error != 0) return false;
    return poll(&poller, 1, 0) == 0;
}

/* A transfer's sockets: one offered to it, `offered` until libcurl opens a socket to `peer`,
 * then `adopted` (libcurl owns and closes it from then on); -1 when none. And the errno of a
 * socket the system refused (0: none): libcurl then says only "could not connect", with no
 * errno (CURLINFO_OS_ERRNO stays 0), which read as a network failure when the process was out
 * of descriptors or memory. */
typedef struct {
    int offered;
    int adopted;
    struct sockaddr_storage peer;
    socklen_t peer_length;
    int refused_errno;
} hw_curl_adoption;

static inline bool hw_same_address(const struct sockaddr *a, const struct sockaddr_storage *b) {
    if (a->sa_family != b->ss_family) return false;
    if (a->sa_family == AF_INET) {
        const struct sockaddr_in *x = (const struct sockaddr_in *)a, *y = (const struct sockaddr_in *)b;
        return x->sin_port == y->sin_port && x->sin_addr.s_addr == y->sin_addr.s_addr;
    }
    if (a->sa_family == AF_INET6) {
        const struct sockaddr_in6 *x = (const struct sockaddr_in6 *)a, *y = (const struct sockaddr_in6 *)b;
        return x->sin6_port == y->sin6_port && memcmp(&x->sin6_addr, &y->sin6_addr, sizeof(x->sin6_addr)) == 0;
    }
    return false;
}

static inline curl_socket_t hw_curl_open_socket(void *context, curlsocktype purpose, struct curl_sockaddr *address) {
    hw_curl_adoption *adoption = context;
    if (purpose == CURLSOCKTYPE_IPCXN && adoption->offered >= 0
        && hw_same_address(&address->addr, &adoption->peer)) {
        adoption->adopted = adoption->offered;
        adoption->offered = -1;
        return adoption->adopted;
    }
    curl_socket_t opened = socket(address->family, address->socktype | SOCK_CLOEXEC, address->protocol);
    if (opened == CURL_SOCKET_BAD) adoption->refused_errno = errno;
    return opened;
}

static inline int hw_curl_socket_options(void *context, curl_socket_t socket, curlsocktype purpose) {
    hw_curl_adoption *adoption = context;
    return socket == adoption->adopted ? CURL_SOCKOPT_ALREADY_CONNECTED : CURL_SOCKOPT_OK;
}

/* Opens the sockets of the transfer on `handle` through `adoption`: its offered socket, if
 * any, and the errno of one refused. */
static inline void hw_curl_open_sockets_through(CURL *handle, hw_curl_adoption *adoption) {
    HW_CURL(curl_easy_setopt)(handle, CURLOPT_OPENSOCKETFUNCTION, hw_curl_open_socket);
    HW_CURL(curl_easy_setopt)(handle, CURLOPT_OPENSOCKETDATA, adoption);
    HW_CURL(curl_easy_setopt)(handle, CURLOPT_SOCKOPTFUNCTION, hw_curl_socket_options);
    HW_CURL(curl_easy_setopt)(handle, CURLOPT_SOCKOPTDATA, adoption);
}

#endif
