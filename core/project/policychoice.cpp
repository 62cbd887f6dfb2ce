#include "policychoice.h"

namespace dreamrsi {

namespace {
const QLatin1String BuiltinPrefix("builtin:");
const QLatin1String ManualWord("manual");
} // namespace

PolicyChoice PolicyChoice::fromArgument(const QString &argument)
{
    const QString text = argument.trimmed();
    if (text.isEmpty())
        return latestApproved();
    if (text == ManualWord || text == BuiltinPrefix + ManualWord)
        return manual();
    if (text.startsWith(BuiltinPrefix))
        return builtin(text.mid(BuiltinPrefix.size()));
    return stored(text);
}

QString PolicyChoice::toArgument() const
{
    switch (m_kind) {
    case Kind::LatestApproved:
        return {};
    case Kind::Builtin:
        return BuiltinPrefix + m_name;
    case Kind::Manual:
        return ManualWord;
    case Kind::Stored:
        return m_name;
    }
    return {};
}

} // namespace dreamrsi
