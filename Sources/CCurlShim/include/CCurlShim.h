// CCurlShim: libcurl found at run time, with our own declarations of the few parts of its stable ABI the libcurl
// transport uses. No libcurl header is included and nothing is linked at build time: the functions are looked up
// with dlopen/dlsym in a library already loaded (FoundationNetworking's) or on the system.
#ifndef NETWORKING_CCURLSHIM_H
#define NETWORKING_CCURLSHIM_H

#include <stddef.h>
#include <stdint.h>

/// A libcurl callback that moves bytes: write, read and header callbacks share this shape.
typedef size_t (*ncurl_data_fn)(char *buffer, size_t size, size_t count, void *user);
/// CURLOPT_SEEKFUNCTION: rewinds an upload (origin is SEEK_SET for libcurl's rewinds).
typedef int (*ncurl_seek_fn)(void *user, int64_t offset, int origin);
/// CURLOPT_TRAILERFUNCTION: fills `*list` (a curl_slist of "Name: value" lines, which libcurl frees) with the trailer
/// fields sent after a chunked request body's last chunk; returns 0 (CURL_TRAILERFUNC_OK) or 1 to abort.
typedef int (*ncurl_trailer_fn)(void **list, void *user);
/// CURLOPT_XFERINFOFUNCTION: progress.
typedef int (*ncurl_xferinfo_fn)(void *user, int64_t dltotal, int64_t dlnow, int64_t ultotal, int64_t ulnow);

/// The functions of one loaded libcurl. Optional ones (newer than 7.66 or 7.68) are NULL when missing.
typedef struct ncurl_api {
    void *library;
    int (*global_init)(long flags);
    void *(*easy_init)(void);
    void (*easy_cleanup)(void *easy);
    void (*easy_reset)(void *easy);
    int (*easy_setopt)(void *easy, int option, ...);
    int (*easy_getinfo)(void *easy, int info, ...);
    int (*easy_pause)(void *easy, int bitmask);
    int (*easy_perform)(void *easy);
    const char *(*easy_strerror)(int code);
    void *(*slist_append)(void *list, const char *line);
    void (*slist_free_all)(void *list);
    void *(*multi_init)(void);
    int (*multi_cleanup)(void *multi);
    int (*multi_setopt)(void *multi, int option, ...);
    int (*multi_add_handle)(void *multi, void *easy);
    int (*multi_remove_handle)(void *multi, void *easy);
    int (*multi_perform)(void *multi, int *running);
    void *(*multi_info_read)(void *multi, int *remaining);
    int (*multi_poll)(void *multi, void *extra_fds, unsigned int count, int timeout_ms, int *ready);
    int (*multi_wakeup)(void *multi);
    const void *(*version_info)(int age);
} ncurl_api;

/// Opens the library `name` (first as already loaded, then from disk) and looks up every function. Returns 0 and
/// fills `api`, or a non-zero reason (1: library not found, 2: a required function missing, 3: multi_poll or
/// multi_wakeup missing, libcurl older than 7.68) with a message in `message`.
int ncurl_open(const char *name, ncurl_api *api, char *message, int message_capacity);

/// libcurl's version number (0x078801 for 7.88.1) and its text.
unsigned int ncurl_version_number(const ncurl_api *api);
const char *ncurl_version_text(const ncurl_api *api);
/// libcurl's feature bits (CURL_VERSION_LIBZ, _BROTLI, _ZSTD and the others).
unsigned int ncurl_version_features(const ncurl_api *api);

int ncurl_setopt_long(const ncurl_api *api, void *easy, int option, long value);
int ncurl_setopt_pointer(const ncurl_api *api, void *easy, int option, const void *value);
int ncurl_setopt_offset(const ncurl_api *api, void *easy, int option, int64_t value);
int ncurl_setopt_data_fn(const ncurl_api *api, void *easy, int option, ncurl_data_fn value);
int ncurl_setopt_seek_fn(const ncurl_api *api, void *easy, int option, ncurl_seek_fn value);
int ncurl_setopt_xferinfo_fn(const ncurl_api *api, void *easy, int option, ncurl_xferinfo_fn value);
int ncurl_setopt_trailer_fn(const ncurl_api *api, void *easy, int option, ncurl_trailer_fn value);
/// Sets a CURLOPT_*_BLOB option; libcurl copies the bytes.
int ncurl_setopt_blob(const ncurl_api *api, void *easy, int option, const void *bytes, size_t length);

int ncurl_getinfo_long(const ncurl_api *api, void *easy, int info, long *value);
int ncurl_getinfo_offset(const ncurl_api *api, void *easy, int info, int64_t *value);
int ncurl_getinfo_pointer(const ncurl_api *api, void *easy, int info, void **value);

int ncurl_multi_setopt_long(const ncurl_api *api, void *multi, int option, long value);
/// The next finished transfer: returns 1 and fills `easy` and `result`, or 0 when none is left.
int ncurl_multi_next_done(const ncurl_api *api, void *multi, void **easy, int *result);

/// Sequentially consistent load and store of a flag shared by the loop thread and its callers (compiler builtins:
/// no header), so the loop can tell whether it must be woken and can wait for work without a lock or a syscall.
int ncurl_flag_load(const int *flag);
void ncurl_flag_store(int *flag, int value);
/// Adds `delta` to `*count` atomically; returns the new value.
long ncurl_count_add(long *count, long delta);
/// Gives the processor to another runnable thread, if any (`sched_yield`), staying runnable.
void ncurl_yield(void);

/// Names the calling thread (at most 15 bytes on Linux), for debuggers and profilers.
void ncurl_name_thread(const char *name);

/// Copies the calling thread's name into `name` (`length` bytes with its terminator); 0 on success.
int ncurl_thread_name(char *name, unsigned long length);

// WebSocket connections (NetworkingCurl/WebSocket): a CURLOPT_CONNECT_ONLY transfer gives the connection, and the
// bytes go through curl_easy_send and curl_easy_recv. Looked up apart from ncurl_open, so a libcurl without them
// still loads for HTTP.

/// curl_easy_send and curl_easy_recv (7.18.1); NULL when the library lacks them.
typedef struct ncurl_raw_api {
    int (*easy_send)(void *easy, const void *buffer, size_t length, size_t *sent);
    int (*easy_recv)(void *easy, void *buffer, size_t length, size_t *received);
} ncurl_raw_api;

/// Looks up curl_easy_send and curl_easy_recv in the library `api` was opened from.
void ncurl_open_raw(const ncurl_api *api, ncurl_raw_api *raw);

/// libcurl's struct curl_waitfd: a socket curl_multi_poll watches besides its own (`events` and `revents` are
/// CURL_WAIT_POLLIN 1 and CURL_WAIT_POLLOUT 4).
typedef struct ncurl_waitfd {
    int fd;
    short events;
    short revents;
} ncurl_waitfd;

/// CURLINFO_ACTIVESOCKET and the other socket infos (curl_socket_t is an int on Linux and macOS).
int ncurl_getinfo_socket(const ncurl_api *api, void *easy, int info, int *value);

/// curl_easy_send / curl_easy_recv through the table, returning libcurl's code (CURLE_AGAIN 81 when the socket is
/// not ready) and the count moved.
int ncurl_send(const ncurl_raw_api *raw, void *easy, const void *buffer, size_t length, size_t *sent);
int ncurl_recv(const ncurl_raw_api *raw, void *easy, void *buffer, size_t length, size_t *received);

#endif
