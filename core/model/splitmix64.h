#pragma once

#include <QtGlobal>

namespace dreamrsi {

/// splitmix64 (Steele, Lea and Flood, 2014): the one small generator behind
/// every seeded choice of the project (synthetic worlds, the built-in agent,
/// the improver, per-attempt seeds, the counterfactual loop's world orders).
/// Its output is part of what seeds reproduce, so there is exactly one copy.
class SplitMix64
{
public:
    explicit constexpr SplitMix64(quint64 seed)
        : m_state(seed)
    {
    }

    /// The next 64 bits.
    constexpr quint64 next()
    {
        quint64 z = (m_state += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1), from the top 53 bits.
    constexpr double uniform() { return double(next() >> 11) * (1.0 / 9007199254740992.0); }
    /// Uniform integer in [0, n) (0 when n ≤ 1).
    constexpr int below(int n) { return n <= 1 ? 0 : int(next() % quint64(n)); }

    /// The first output of a generator seeded with `x`: a value that differs
    /// from `x`'s neighbours in every bit (for deriving seeds).
    static constexpr quint64 mix(quint64 x) { return SplitMix64(x).next(); }
    /// Where the generator stands (a generator seeded with it goes on from here).
    constexpr quint64 state() const { return m_state; }

private:
    quint64 m_state;
};

} // namespace dreamrsi
