#include "builtinrandom.h"

#include "model/splitmix64.h"

#include <QByteArray>

#include <cmath>

namespace dreamrsi {

BuiltinRandom::BuiltinRandom(std::uint64_t seed)
    : m_state(seed)
{
}

std::uint64_t BuiltinRandom::stableHash(const QString &text)
{
    std::uint64_t h = 14695981039346656037ull;
    const QByteArray bytes = text.toUtf8();
    for (const char c : bytes) {
        h ^= std::uint8_t(c);
        h *= 1099511628211ull;
    }
    return h;
}

std::uint64_t BuiltinRandom::mix(std::uint64_t a, std::uint64_t b)
{
    BuiltinRandom r(a ^ (b + 0x9e3779b97f4a7c15ull + (a << 6) + (a >> 2)));
    return r.next();
}

std::uint64_t BuiltinRandom::next()
{
    SplitMix64 g(m_state);
    const std::uint64_t z = g.next();
    m_state = g.state();
    return z;
}

double BuiltinRandom::uniform()
{
    return double(next() >> 11) * 0x1.0p-53;
}

int BuiltinRandom::range(int lo, int hi)
{
    if (hi <= lo)
        return lo;
    return lo + int(next() % std::uint64_t(hi - lo + 1));
}

bool BuiltinRandom::chance(double p)
{
    return uniform() < p;
}

QString BuiltinRandom::pick(const QStringList &items)
{
    return items.isEmpty() ? QString() : items.at(range(0, int(items.size()) - 1));
}

double BuiltinRandom::jitter(double value, double factor)
{
    return value * std::pow(factor, 2.0 * uniform() - 1.0);
}

qint64 BuiltinRandom::programSeed()
{
    return qint64(next() & 0x7fffffffull);
}

} // namespace dreamrsi
