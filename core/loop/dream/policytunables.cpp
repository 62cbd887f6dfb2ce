#include "policytunables.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <cmath>

namespace dreamrsi {

namespace {

/// The line of table `name`; capture 1 is the object literal.
QRegularExpression tableLine(const QString &name)
{
    return QRegularExpression(QStringLiteral(R"(^[ \t]*(?:const|var|let)[ \t]+%1[ \t]*=[ \t]*(\{[^\n]*?\})[ \t]*;)")
                                  .arg(QRegularExpression::escape(name)),
                              QRegularExpression::MultilineOption);
}

bool isWhole(double x)
{
    return std::isfinite(x) && std::floor(x) == x;
}

} // namespace

QList<PolicyTunable> PolicyTunables::parse(const QString &source)
{
    static const QRegularExpression line(
        QStringLiteral(R"(^[ \t]*(?:const|var|let)[ \t]+([A-Z][A-Z0-9_]*)[ \t]*=[ \t]*(-?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)[ \t]*;[ \t]*(?://([^\n]*))?$)"),
        QRegularExpression::MultilineOption);
    static const QRegularExpression range(
        QStringLiteral(R"(\brange\s*\[\s*(-?[\d.]+(?:[eE][-+]?\d+)?)\s*,\s*(-?[\d.]+(?:[eE][-+]?\d+)?)\s*\])"));
    static const QRegularExpression choice(QStringLiteral(R"(\bchoice\s+(-?[\d.]+(?:\s*\|\s*-?[\d.]+)+))"));

    QList<PolicyTunable> tunables;
    for (auto it = line.globalMatch(source); it.hasNext();) {
        const QRegularExpressionMatch m = it.next();
        PolicyTunable t;
        t.name = m.captured(1);
        const QString literalText = m.captured(2);
        bool ok = false;
        t.value = literalText.toDouble(&ok);
        if (!ok || !std::isfinite(t.value))
            continue;
        t.literalStart = m.capturedStart(2);
        t.literalLength = m.capturedLength(2);
        t.integer = !literalText.contains(QLatin1Char('.')) && !literalText.contains(QLatin1Char('e'), Qt::CaseInsensitive);
        const QString comment = m.captured(3);
        t.learned = comment.trimmed().startsWith(QLatin1String("learned"));
        const QRegularExpressionMatch c = choice.match(comment);
        if (c.hasMatch()) {
            for (const QString &part : c.captured(1).split(QLatin1Char('|'))) {
                const double v = part.trimmed().toDouble(&ok);
                if (ok && std::isfinite(v) && !t.choices.contains(v))
                    t.choices.append(v);
            }
            if (!t.choices.contains(t.value))
                t.choices.append(t.value);
        } else {
            const QRegularExpressionMatch r = range.match(comment);
            if (r.hasMatch()) {
                bool okLow = false, okHigh = false;
                const double lo = r.captured(1).toDouble(&okLow);
                const double hi = r.captured(2).toDouble(&okHigh);
                if (okLow && okHigh && lo <= hi) {
                    t.low = lo;
                    t.high = hi;
                    t.integer = t.integer && isWhole(lo) && isWhole(hi);
                }
            }
        }
        tunables.append(t);
    }
    return tunables;
}

QString PolicyTunables::literal(double value, bool integer)
{
    if (integer)
        return QString::number(qint64(std::llround(value)));
    QString text = QString::number(value, 'g', 17);
    // The shortest form that reads back to the same double.
    for (int precision = 1; precision <= 17; ++precision) {
        const QString candidate = QString::number(value, 'g', precision);
        if (candidate.toDouble() == value) {
            text = candidate;
            break;
        }
    }
    if (!text.contains(QLatin1Char('.')) && !text.contains(QLatin1Char('e')))
        text += QStringLiteral(".0");
    return text;
}

QString PolicyTunables::withValue(const QString &source, const PolicyTunable &tunable, double value)
{
    QString out = source;
    out.replace(tunable.literalStart, tunable.literalLength, literal(value, tunable.integer));
    return out;
}

bool PolicyTunables::hasDirectionTable(const QString &source, const QString &table)
{
    return tableLine(table).match(source).hasMatch();
}

QString PolicyTunables::withDirectionTable(const QString &source, const QString &table, const QList<DirectionValue> &entries)
{
    const QRegularExpressionMatch m = tableLine(table).match(source);
    if (!m.hasMatch())
        return source;
    // Written by hand rather than through QJsonObject, which would sort the
    // keys: the order carries the ranking for a reader. Names are escaped as
    // JSON strings (a JSON string is a JavaScript string literal).
    QStringList written;
    for (const DirectionValue &e : entries) {
        const QByteArray key = QJsonDocument(QJsonArray{e.direction}).toJson(QJsonDocument::Compact);
        const double rounded = std::round(e.value * 1e4) / 1e4;
        written << QString::fromUtf8(key.mid(1, key.size() - 2)) + QStringLiteral(": ") + literal(rounded == 0.0 ? 0.0 : rounded, isWhole(rounded));
    }
    QString out = source;
    out.replace(m.capturedStart(1), m.capturedLength(1), QStringLiteral("{") + written.join(QStringLiteral(", ")) + QStringLiteral("}"));
    return out;
}

} // namespace dreamrsi
