// Contexts (rules X1, X2): key/value slots owned by a scope, a coroutine,
// or nobody (free-standing). See context.cpp.
#pragma once

#include <tasync/context.h>

#include <cstdint>
#include <string>
#include <unordered_map>

struct tasync_runtime;
struct tasync_context {
    // None: free-standing (tasync_context_create), counting its own
    // references and listed in its runtime's free_contexts.
    enum class Owner : std::uint8_t { Scope, Coroutine, None };
    tasync_context(Owner k, void *o) : owner_kind(k), owner(o) {}
    Owner owner_kind;
    void *owner;
    std::uint32_t refs = 0;          // None only
    tasync_runtime *rt = nullptr;    // None only; nullptr once the runtime is gone
    struct ObjectEntry {
        void *key;    // host value, retained
        void *value;  // host value, retained, may be NULL
    };
    std::unordered_map<std::string, void *> strings;
    std::unordered_map<void *, ObjectEntry> objects;
};
