// tasync_strerror / tasync_err_name, generated from TASYNC_ERROR_MAP.
#include <tasync/errors.h>

#include <cstring>

extern "C" {

TASYNC_API const char *tasync_strerror(int err) {
    switch (err) {
#define TASYNC_MSG_(name, value, msg) \
    case value: return msg;
        TASYNC_ERROR_MAP(TASYNC_MSG_)
#undef TASYNC_MSG_
        default: break;
    }
    if (err < 0 && err > -4096) return std::strerror(-err);
    if (err == 0) return "success";
    return "unknown error";
}

TASYNC_API const char *tasync_err_name(int err) {
    switch (err) {
#define TASYNC_NAME_(name, value, msg) \
    case value: return "TASYNC_E" #name;
        TASYNC_ERROR_MAP(TASYNC_NAME_)
#undef TASYNC_NAME_
        default: break;
    }
    if (err < 0 && err > -4096) {
        const char *n = strerrorname_np(-err);
        if (n != nullptr) return n;
    }
    return "UNKNOWN";
}

}  // extern "C"
