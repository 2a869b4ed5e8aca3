// The counted host: see host.hpp.
#include "host.hpp"

#include <cstdio>
#include <cstring>

#include "episode.hpp"

namespace tasync_random {

Host::Host(Episode *ep) : ep_(ep) {
    table_.size = sizeof(table_);
    table_.value_retain = &Host::value_retain;
    table_.value_release = &Host::value_release;
    table_.error_retain = &Host::error_retain;
    table_.error_release = &Host::error_release;
    table_.error_create = &Host::error_create;
    table_.error_is_cancellation = &Host::error_is_cancellation;
    table_.error_describe = &Host::error_describe;
    table_.coroutine_enter = &Host::coroutine_enter;
    table_.coroutine_leave = &Host::coroutine_leave;
    table_.coroutine_free = &Host::coroutine_free;
    table_.warning = &Host::warning;
    table_.capture_location = &Host::capture_location;
}

Value *Host::value(long v, const std::string &what) {
    auto p = std::make_unique<Value>();
    p->magic = HostObject::kValueMagic;
    p->serial = ++serial_;
    p->born_op = ep_->op_index;
    p->what = what;
    p->v = v;
    ++live_values_;
    values_.push_back(std::move(p));
    return values_.back().get();
}

Error *Host::error(int kind, const std::string &what) {
    auto p = std::make_unique<Error>();
    p->magic = HostObject::kErrorMagic;
    p->serial = ++serial_;
    p->born_op = ep_->op_index;
    p->what = what;
    p->kind = kind;
    ++live_errors_;
    errors_.push_back(std::move(p));
    return errors_.back().get();
}

bool Host::is_value(const void *p) const {
    return p != nullptr && static_cast<const HostObject *>(p)->magic == HostObject::kValueMagic;
}

bool Host::is_error(const void *p) const {
    return p != nullptr && static_cast<const HostObject *>(p)->magic == HostObject::kErrorMagic;
}

void Host::check_alive(const HostObject *o, const char *what) const {
    RANDOM_CHECK(*ep_, o->refs > 0,
                 what << " of a host object whose references were all released: #" << o->serial << " ("
                      << o->what << ", made at op " << o->born_op << ")");
}

void Host::retain(Value *v) {
    check_alive(v, "retain");
    ++v->refs;
}

void Host::retain(Error *e) {
    check_alive(e, "retain");
    ++e->refs;
}

void Host::release(Value *v) {
    check_alive(v, "release");
    if (--v->refs == 0) --live_values_;
}

void Host::release(Error *e) {
    check_alive(e, "release");
    if (--e->refs == 0) --live_errors_;
}

std::string Host::describe_live(std::size_t max) const {
    std::string out;
    std::size_t n = 0;
    auto add = [&](const HostObject *o, const char *type) {
        if (o->refs <= 0 || n >= max) return;
        ++n;
        out += std::string("  ") + type + " #" + std::to_string(o->serial) + " refs=" + std::to_string(o->refs) +
               " made at op " + std::to_string(o->born_op) + ": " + o->what + "\n";
    };
    for (const auto &v : values_) add(v.get(), "value");
    for (const auto &e : errors_) add(e.get(), "error");
    return out;
}

void Host::value_retain(void *h, void *v) {
    auto *self = static_cast<Host *>(h);
    RANDOM_CHECK(*self->ep_, self->is_value(v), "the core retained a value the host never made: " << v);
    if (self->is_value(v)) self->retain(static_cast<Value *>(v));
}

void Host::value_release(void *h, void *v) {
    auto *self = static_cast<Host *>(h);
    RANDOM_CHECK(*self->ep_, self->is_value(v), "the core released a value the host never made: " << v);
    if (self->is_value(v)) self->release(static_cast<Value *>(v));
}

void Host::error_retain(void *h, void *e) {
    auto *self = static_cast<Host *>(h);
    RANDOM_CHECK(*self->ep_, self->is_error(e), "the core retained an error the host never made: " << e);
    if (self->is_error(e)) self->retain(static_cast<Error *>(e));
}

void Host::error_release(void *h, void *e) {
    auto *self = static_cast<Host *>(h);
    RANDOM_CHECK(*self->ep_, self->is_error(e), "the core released an error the host never made: " << e);
    if (self->is_error(e)) self->release(static_cast<Error *>(e));
}

void *Host::error_create(void *h, int kind, int code, const char *message) {
    auto *self = static_cast<Host *>(h);
    Error *e = self->error(kind, std::string("core: ") + (message != nullptr ? message : "(null)"));
    e->code = code;
    e->made_by_core = true;
    return e;
}

int Host::error_is_cancellation(void *h, void *e) {
    auto *self = static_cast<Host *>(h);
    RANDOM_CHECK(*self->ep_, self->is_error(e), "error_is_cancellation on a pointer the host never made: " << e);
    if (!self->is_error(e)) return 0;
    int k = static_cast<Error *>(e)->kind;
    return k == TASYNC_ERROR_CANCELLATION || k == TASYNC_ERROR_AWAIT_CANCELLED;
}

size_t Host::error_describe(void *h, void *e, char *buf, size_t len) {
    auto *self = static_cast<Host *>(h);
    std::string d = self->is_error(e) ? "Error(" + std::to_string(static_cast<Error *>(e)->kind) +
                                            "): " + static_cast<Error *>(e)->what
                                      : std::string("<not a host error>");
    if (len > 0) std::snprintf(buf, len, "%s", d.c_str());
    return d.size();
}

void Host::coroutine_enter(void *h, tasync_coroutine_t *co, void *co_data) {
    static_cast<Host *>(h)->ep_->on_enter(co, co_data);
}

void Host::coroutine_leave(void *h, tasync_coroutine_t *co, void *co_data) {
    static_cast<Host *>(h)->ep_->on_leave(co, co_data);
}

void Host::coroutine_free(void *h, tasync_coroutine_t *co, void *co_data) {
    static_cast<Host *>(h)->ep_->on_free(co, co_data);
}

void Host::warning(void *h, const char *message) {
    auto *self = static_cast<Host *>(h);
    ++self->warning_count_;
    if (self->recent_warnings_.size() >= 8) self->recent_warnings_.erase(self->recent_warnings_.begin());
    self->recent_warnings_.emplace_back(message);
    self->ep_->on_warning(message);
}

int Host::capture_location(void *h, tasync_location_t *out) {
    auto *self = static_cast<Host *>(h);
    out->file = self->location_file_.c_str();
    out->line = static_cast<uint32_t>(self->ep_->op_index);
    return 0;
}

}  // namespace tasync_random
