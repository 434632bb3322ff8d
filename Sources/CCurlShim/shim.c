#include "CCurlShim.h"

// Our own declarations of the dynamic loader (POSIX): no system header.
extern void *dlopen(const char *file, int mode);
extern void *dlsym(void *handle, const char *name);
extern char *dlerror(void);

#if defined(__APPLE__)
#define NCURL_RTLD_NOW 0x2
#define NCURL_RTLD_NOLOAD 0x10
#else
#define NCURL_RTLD_NOW 0x2
#define NCURL_RTLD_NOLOAD 0x4
#endif

// libcurl's struct curl_blob and struct CURLMsg, as its ABI lays them out.
struct ncurl_blob {
    void *data;
    size_t len;
    unsigned int flags;
};
struct ncurl_message {
    int msg;
    void *easy_handle;
    union {
        void *whatever;
        int result;
    } data;
};
// The first fields of curl_version_info_data.
struct ncurl_version_head {
    int age;
    const char *version;
    unsigned int version_num;
    const char *host;
    int features;
};

static void ncurl_copy(char *to, int capacity, const char *a, const char *b) {
    if (!to || capacity <= 0) return;
    int i = 0;
    for (const char *p = a; p && *p && i < capacity - 1; p++) to[i++] = *p;
    for (const char *p = b; p && *p && i < capacity - 1; p++) to[i++] = *p;
    to[i] = 0;
}

#define NCURL_FIND(field, symbol, required)                                                                \
    do {                                                                                                   \
        *(void **)(&api->field) = dlsym(handle, symbol);                                                   \
        if (!api->field && required) {                                                                     \
            ncurl_copy(message, message_capacity, "libcurl lacks the function ", symbol);                  \
            return 2;                                                                                      \
        }                                                                                                  \
    } while (0)

int ncurl_open(const char *name, ncurl_api *api, char *message, int message_capacity) {
    void *handle = dlopen(name, NCURL_RTLD_NOW | NCURL_RTLD_NOLOAD);
    if (!handle) handle = dlopen(name, NCURL_RTLD_NOW);
    if (!handle) {
        ncurl_copy(message, message_capacity, "cannot load libcurl: ", dlerror());
        return 1;
    }
    api->library = handle;
    NCURL_FIND(global_init, "curl_global_init", 1);
    NCURL_FIND(easy_init, "curl_easy_init", 1);
    NCURL_FIND(easy_cleanup, "curl_easy_cleanup", 1);
    NCURL_FIND(easy_reset, "curl_easy_reset", 1);
    NCURL_FIND(easy_setopt, "curl_easy_setopt", 1);
    NCURL_FIND(easy_getinfo, "curl_easy_getinfo", 1);
    NCURL_FIND(easy_pause, "curl_easy_pause", 1);
    NCURL_FIND(easy_perform, "curl_easy_perform", 1);
    NCURL_FIND(easy_strerror, "curl_easy_strerror", 1);
    NCURL_FIND(slist_append, "curl_slist_append", 1);
    NCURL_FIND(slist_free_all, "curl_slist_free_all", 1);
    NCURL_FIND(multi_init, "curl_multi_init", 1);
    NCURL_FIND(multi_cleanup, "curl_multi_cleanup", 1);
    NCURL_FIND(multi_setopt, "curl_multi_setopt", 1);
    NCURL_FIND(multi_add_handle, "curl_multi_add_handle", 1);
    NCURL_FIND(multi_remove_handle, "curl_multi_remove_handle", 1);
    NCURL_FIND(multi_perform, "curl_multi_perform", 1);
    NCURL_FIND(multi_info_read, "curl_multi_info_read", 1);
    NCURL_FIND(version_info, "curl_version_info", 1);
    NCURL_FIND(multi_poll, "curl_multi_poll", 0);
    NCURL_FIND(multi_wakeup, "curl_multi_wakeup", 0);
    if (!api->multi_poll || !api->multi_wakeup) {
        ncurl_copy(message, message_capacity, "libcurl is older than 7.68: no curl_multi_poll/curl_multi_wakeup",
                   0);
        return 3;
    }
    return 0;
}

unsigned int ncurl_version_number(const ncurl_api *api) {
    const struct ncurl_version_head *info = api->version_info(0);
    return info ? info->version_num : 0;
}

const char *ncurl_version_text(const ncurl_api *api) {
    const struct ncurl_version_head *info = api->version_info(0);
    return info ? info->version : "";
}

unsigned int ncurl_version_features(const ncurl_api *api) {
    const struct ncurl_version_head *info = api->version_info(0);
    return info ? (unsigned int)info->features : 0;
}

int ncurl_setopt_long(const ncurl_api *api, void *easy, int option, long value) {
    return api->easy_setopt(easy, option, value);
}
int ncurl_setopt_pointer(const ncurl_api *api, void *easy, int option, const void *value) {
    return api->easy_setopt(easy, option, value);
}
int ncurl_setopt_offset(const ncurl_api *api, void *easy, int option, int64_t value) {
    return api->easy_setopt(easy, option, value);
}
int ncurl_setopt_data_fn(const ncurl_api *api, void *easy, int option, ncurl_data_fn value) {
    return api->easy_setopt(easy, option, value);
}
int ncurl_setopt_seek_fn(const ncurl_api *api, void *easy, int option, ncurl_seek_fn value) {
    return api->easy_setopt(easy, option, value);
}
int ncurl_setopt_xferinfo_fn(const ncurl_api *api, void *easy, int option, ncurl_xferinfo_fn value) {
    return api->easy_setopt(easy, option, value);
}
int ncurl_setopt_trailer_fn(const ncurl_api *api, void *easy, int option, ncurl_trailer_fn value) {
    return api->easy_setopt(easy, option, value);
}
int ncurl_setopt_blob(const ncurl_api *api, void *easy, int option, const void *bytes, size_t length) {
    struct ncurl_blob blob = {(void *)bytes, length, 1 /* CURL_BLOB_COPY */};
    return api->easy_setopt(easy, option, &blob);
}

int ncurl_getinfo_long(const ncurl_api *api, void *easy, int info, long *value) {
    return api->easy_getinfo(easy, info, value);
}
int ncurl_getinfo_offset(const ncurl_api *api, void *easy, int info, int64_t *value) {
    return api->easy_getinfo(easy, info, value);
}
int ncurl_getinfo_pointer(const ncurl_api *api, void *easy, int info, void **value) {
    return api->easy_getinfo(easy, info, value);
}

int ncurl_multi_setopt_long(const ncurl_api *api, void *multi, int option, long value) {
    return api->multi_setopt(multi, option, value);
}

int ncurl_multi_next_done(const ncurl_api *api, void *multi, void **easy, int *result) {
    int remaining = 0;
    struct ncurl_message *message;
    while ((message = api->multi_info_read(multi, &remaining)) != 0) {
        if (message->msg == 1 /* CURLMSG_DONE */) {
            *easy = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

int ncurl_flag_load(const int *flag) { return __atomic_load_n(flag, __ATOMIC_SEQ_CST); }

void ncurl_flag_store(int *flag, int value) { __atomic_store_n(flag, value, __ATOMIC_SEQ_CST); }

long ncurl_count_add(long *count, long delta) { return __atomic_add_fetch(count, delta, __ATOMIC_SEQ_CST); }

// Our own declaration of the POSIX call (no system header).
extern int sched_yield(void);

void ncurl_yield(void) { sched_yield(); }

// Thread names, our own declarations of the POSIX extensions (no system header; pthread_t is an integer on Linux).
#if defined(__APPLE__)
extern int pthread_setname_np(const char *name);
extern void *pthread_self(void);
extern int pthread_getname_np(void *thread, char *name, unsigned long length);
void ncurl_name_thread(const char *name) { pthread_setname_np(name); }
#else
extern unsigned long pthread_self(void);
extern int pthread_setname_np(unsigned long thread, const char *name);
extern int pthread_getname_np(unsigned long thread, char *name, unsigned long length);
void ncurl_name_thread(const char *name) { pthread_setname_np(pthread_self(), name); }
#endif
int ncurl_thread_name(char *name, unsigned long length) { return pthread_getname_np(pthread_self(), name, length); }

// WebSocket connections: looked up on demand, optional (see CCurlShim.h).
void ncurl_open_raw(const ncurl_api *api, ncurl_raw_api *raw) {
    *(void **)(&raw->easy_send) = api->library ? dlsym(api->library, "curl_easy_send") : 0;
    *(void **)(&raw->easy_recv) = api->library ? dlsym(api->library, "curl_easy_recv") : 0;
}

int ncurl_getinfo_socket(const ncurl_api *api, void *easy, int info, int *value) {
    return api->easy_getinfo(easy, info, value);
}

int ncurl_send(const ncurl_raw_api *raw, void *easy, const void *buffer, size_t length, size_t *sent) {
    return raw->easy_send(easy, buffer, length, sent);
}

int ncurl_recv(const ncurl_raw_api *raw, void *easy, void *buffer, size_t length, size_t *received) {
    return raw->easy_recv(easy, buffer, length, received);
}
