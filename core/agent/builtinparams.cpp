#include "builtinparams.h"

#include <QRegularExpression>
#include <QStringList>

#include <cmath>

namespace dreamrsi {

namespace {

const QString marker = QStringLiteral("dreamrsi-builtin:");

bool isNumber(const QString &value)
{
    bool ok = false;
    const double v = value.toDouble(&ok);
    return ok && std::isfinite(v);
}

} // namespace

std::optional<BuiltinParams> BuiltinParams::parse(const QString &program)
{
    const qsizetype at = program.indexOf(marker);
    if (at < 0)
        return std::nullopt;
    qsizetype end = program.indexOf(QLatin1Char('\n'), at);
    if (end < 0)
        end = program.size();
    const QString line = program.mid(at + marker.size(), end - at - marker.size());
    BuiltinParams params;
    const QStringList tokens = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    for (const QString &token : tokens) {
        const qsizetype eq = token.indexOf(QLatin1Char('='));
        if (eq <= 0)
            continue;
        params.m_values.insert(token.left(eq), token.mid(eq + 1).trimmed());
    }
    return params;
}

QString BuiltinParams::text(const QString &key, const QString &fallback) const
{
    return m_values.value(key, fallback);
}

double BuiltinParams::number(const QString &key, double fallback) const
{
    bool ok = false;
    const double v = m_values.value(key).toDouble(&ok);
    return ok && std::isfinite(v) ? v : fallback;
}

int BuiltinParams::integer(const QString &key, int fallback) const
{
    bool ok = false;
    const double v = m_values.value(key).toDouble(&ok);
    return ok && std::isfinite(v) && std::abs(v) < 2e9 ? int(std::lround(v)) : fallback;
}

void BuiltinParams::set(const QString &key, const QString &value)
{
    QString clean = value;
    clean.replace(QRegularExpression(QStringLiteral("[\\s\"'\\\\]")), QStringLiteral("-"));
    m_values.insert(key, clean);
}

void BuiltinParams::setNumber(const QString &key, double value)
{
    m_values.insert(key, QString::number(value, 'g', 6));
}

void BuiltinParams::setInteger(const QString &key, qint64 value)
{
    m_values.insert(key, QString::number(value));
}

QString BuiltinParams::line() const
{
    QStringList parts;
    for (auto it = m_values.cbegin(); it != m_values.cend(); ++it)
        parts << it.key() + QLatin1Char('=') + it.value();
    return parts.join(QLatin1Char(' '));
}

QString BuiltinParams::header(const QString &prefix) const
{
    return prefix + QLatin1Char(' ') + marker + QLatin1Char(' ') + line();
}

QString BuiltinParams::pythonDict() const
{
    QStringList parts;
    for (auto it = m_values.cbegin(); it != m_values.cend(); ++it) {
        const QString value = isNumber(it.value()) ? it.value() : QLatin1Char('"') + it.value() + QLatin1Char('"');
        parts << QLatin1Char('"') + it.key() + QStringLiteral("\": ") + value;
    }
    return QLatin1Char('{') + parts.join(QStringLiteral(", ")) + QLatin1Char('}');
}

QStringList BuiltinParams::changedFrom(const BuiltinParams &other) const
{
    QStringList keys;
    for (auto it = m_values.cbegin(); it != m_values.cend(); ++it)
        if (other.m_values.value(it.key()) != it.value())
            keys << it.key();
    for (auto it = other.m_values.cbegin(); it != other.m_values.cend(); ++it)
        if (!m_values.contains(it.key()))
            keys << it.key();
    keys.sort();
    keys.removeDuplicates();
    return keys;
}

} // namespace dreamrsi
