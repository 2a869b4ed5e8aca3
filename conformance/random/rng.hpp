// A small deterministic random generator (splitmix64): the same seed gives
// the same numbers on every platform and compiler, which is what makes a
// failing seed replayable.
#pragma once

#include <cstdint>

namespace tasync_random {

class Rng {
public:
    Rng() = default;
    explicit Rng(std::uint64_t seed) : s_(seed) {}

    std::uint64_t next() {
        std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    // Uniform in [0, n); 0 when n is 0.
    std::uint32_t below(std::uint32_t n) { return n == 0 ? 0 : static_cast<std::uint32_t>(next() % n); }
    // True with probability percent/100.
    bool chance(unsigned percent) { return below(100) < percent; }
    // A seed for another generator.
    std::uint64_t fork() { return next() ^ 0x5851f42d4c957f2dull; }

private:
    std::uint64_t s_ = 0x853c49e6748fea9bull;
};

// Mixes two numbers into a seed (episode seeds from the run's seed).
inline std::uint64_t mix_seed(std::uint64_t a, std::uint64_t b) {
    Rng r(a * 0x9e3779b97f4a7c15ull + b);
    r.next();
    return r.next();
}

}  // namespace tasync_random
