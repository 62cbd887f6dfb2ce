#pragma once

#include <QString>
#include <QStringList>

#include <cstdint>

namespace dreamrsi {

/// The built-in agent's random source: splitmix64, seeded from stable inputs
/// only (never from the clock or qHash, whose seed changes per process), so
/// the same (agent seed, attempt seed, cell id) always gives the same program.
class BuiltinRandom
{
public:
    explicit BuiltinRandom(std::uint64_t seed);

    /// FNV-1a of the UTF-8 text: a hash that is the same in every process.
    static std::uint64_t stableHash(const QString &text);
    /// Mixes values into one seed.
    static std::uint64_t mix(std::uint64_t a, std::uint64_t b);

    std::uint64_t next();
    /// Uniform in [0, 1).
    double uniform();
    /// Uniform integer in [lo, hi].
    int range(int lo, int hi);
    /// True with probability p.
    bool chance(double p);
    /// One of the items (must not be empty).
    QString pick(const QStringList &items);
    /// value · factor^u with u uniform in [−1, 1]: a multiplicative jitter.
    double jitter(double value, double factor);
    /// A seed for a generated program (31 bits, readable).
    qint64 programSeed();

private:
    std::uint64_t m_state;
};

} // namespace dreamrsi
