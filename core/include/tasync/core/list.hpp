// Intrusive doubly-linked circular lists: no allocation on insert/remove,
// O(1) removal given the element. Used for waiters, scope members and queues.
#pragma once

#include <cstddef>

namespace tasync::detail {

struct Link {
    Link *prev = nullptr;
    Link *next = nullptr;
    void *owner = nullptr; // the element this link belongs to

    bool linked() const noexcept { return next != nullptr; }

    void unlink() noexcept {
        if (next == nullptr) return;
        prev->next = next;
        next->prev = prev;
        prev = next = nullptr;
    }
};

// A list of T, each linked through the member Link T::*M.
template <typename T, Link T::*M>
class List {
public:
    List() noexcept { head_.prev = head_.next = &head_; }
    List(const List &) = delete;
    List &operator=(const List &) = delete;

    bool empty() const noexcept { return head_.next == &head_; }

    void push_back(T *item) noexcept {
        (item->*M).owner = item;
        insert_before(&head_, &(item->*M));
        ++size_;
    }
    void push_front(T *item) noexcept {
        (item->*M).owner = item;
        insert_before(head_.next, &(item->*M));
        ++size_;
    }

    void remove(T *item) noexcept {
        Link &l = item->*M;
        if (!l.linked()) return;
        l.unlink();
        --size_;
    }

    T *front() const noexcept { return empty() ? nullptr : from_link(head_.next); }
    T *back() const noexcept { return empty() ? nullptr : from_link(head_.prev); }

    T *pop_front() noexcept {
        if (empty()) return nullptr;
        T *item = from_link(head_.next);
        remove(item);
        return item;
    }

    std::size_t size() const noexcept { return size_; }

    // Next element after item, or nullptr at the end.
    T *next(const T *item) const noexcept {
        const Link *n = (item->*M).next;
        return n == &head_ ? nullptr : from_link(const_cast<Link *>(n));
    }

    // Calls f(T*) for each element; f may remove the element it is given.
    template <typename F>
    void for_each(F &&f) {
        Link *l = head_.next;
        while (l != &head_) {
            Link *n = l->next;
            f(from_link(l));
            l = n;
        }
    }

    static T *from_link(Link *l) noexcept { return static_cast<T *>(l->owner); }

private:
    static void insert_before(Link *pos, Link *l) noexcept {
        l->next = pos;
        l->prev = pos->prev;
        pos->prev->next = l;
        pos->prev = l;
    }

    Link head_;
    std::size_t size_ = 0;
};

}  // namespace tasync::detail
