/*
 * An LD_PRELOAD library that counts how often OpenSSL is asked to load a CA bundle
 * (X509_STORE_load_file) or directory (X509_STORE_load_path) and how many TLS connections
 * are set up (SSL_new), and writes the counts to the file named by HW_COUNT_FILE at exit:
 * "files=N paths=N connections=N". libcurl's own calls are counted, whether it is linked
 * or opened with dlopen (here-weather opens it with RTLD_LOCAL, so the real functions are
 * looked up in the already-loaded libcrypto and libssl rather than with RTLD_NEXT).
 * Built by the tests (CATrustTests) with the toolchain's clang.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>

static atomic_int files, paths, connections;

static void *real(const char *library, const char *name) {
    void *handle = dlopen(library, RTLD_LAZY | RTLD_NOLOAD);
    return handle == NULL ? NULL : dlsym(handle, name);
}

int X509_STORE_load_file(void *store, const char *file) {
    atomic_fetch_add(&files, 1);
    int (*function)(void *, const char *) = real("libcrypto.so.3", "X509_STORE_load_file");
    return function == NULL ? 0 : function(store, file);
}

int X509_STORE_load_path(void *store, const char *path) {
    atomic_fetch_add(&paths, 1);
    int (*function)(void *, const char *) = real("libcrypto.so.3", "X509_STORE_load_path");
    return function == NULL ? 0 : function(store, path);
}

void *SSL_new(void *context) {
    atomic_fetch_add(&connections, 1);
    void *(*function)(void *) = real("libssl.so.3", "SSL_new");
    return function == NULL ? NULL : function(context);
}

__attribute__((destructor)) static void report(void) {
    const char *path = getenv("HW_COUNT_FILE");
    FILE *file = path == NULL ? NULL : fopen(path, "w");
    if (file == NULL) return;
    fprintf(file, "files=%d paths=%d connections=%d\n", atomic_load(&files), atomic_load(&paths), atomic_load(&connections));
    fclose(file);
}
