#pragma once

#include <QMap>
#include <QString>

#include <optional>

namespace dreamrsi {

/// The parameter block the built-in agent writes into every program it makes,
/// as one comment line:
///
///     # dreamrsi-builtin: task=c3_autocorrelation direction=smooth-minimax generation=2 n=300 …
///
/// (`//` instead of `#` in C++ and CUDA). A refinement reads its parent's
/// block back with parse() and perturbs it. Values are plain tokens (no
/// spaces); numbers are written so that writing a parsed block again gives
/// the same text.
class BuiltinParams
{
public:
    /// The block of `program`, or nullopt when the program has none (it was
    /// not written by the built-in agent).
    static std::optional<BuiltinParams> parse(const QString &program);

    bool contains(const QString &key) const { return m_values.contains(key); }
    QString text(const QString &key, const QString &fallback = {}) const;
    double number(const QString &key, double fallback) const;
    int integer(const QString &key, int fallback) const;

    void set(const QString &key, const QString &value);
    void setNumber(const QString &key, double value);
    void setInteger(const QString &key, qint64 value);

    /// "key=value …" in key order.
    QString line() const;
    /// The comment line, `prefix` being "#" or "//".
    QString header(const QString &prefix) const;
    /// A Python dict literal of the values (numbers bare, the rest quoted).
    QString pythonDict() const;
    /// Keys whose values differ from `other`'s (or exist in one only), sorted.
    QStringList changedFrom(const BuiltinParams &other) const;

    const QMap<QString, QString> &values() const { return m_values; }

private:
    QMap<QString, QString> m_values;
};

} // namespace dreamrsi
