#include "unifieddiff.h"

#include <QStringList>

#include <dtl/dtl.hpp>

#include <string>
#include <vector>

namespace dreamrsi {

namespace {
std::vector<std::string> toLines(const QString &text)
{
    std::vector<std::string> lines;
    if (text.isEmpty())
        return lines;
    QStringList parts = text.split(QLatin1Char('\n'));
    if (text.endsWith(QLatin1Char('\n')))
        parts.removeLast();
    lines.reserve(size_t(parts.size()));
    for (const QString &line : std::as_const(parts))
        lines.push_back(line.toStdString());
    return lines;
}

template<typename SesElem>
void appendLines(QString &out, const std::vector<SesElem> &elems)
{
    for (const auto &e : elems) {
        const char mark = e.second.type == dtl::SES_ADD ? '+' : e.second.type == dtl::SES_DELETE ? '-' : ' ';
        out += QLatin1Char(mark) + QString::fromStdString(e.first) + QLatin1Char('\n');
    }
}
} // namespace

QString unifiedDiff(const QString &before, const QString &after, const QString &beforeLabel, const QString &afterLabel)
{
    const std::vector<std::string> a = toLines(before);
    const std::vector<std::string> b = toLines(after);
    if (a == b)
        return {};
    dtl::Diff<std::string> diff(a, b);
    diff.compose();
    diff.composeUnifiedHunks();
    QString out = QStringLiteral("--- ") + beforeLabel + QStringLiteral("\n+++ ") + afterLabel + QLatin1Char('\n');
    for (const auto &hunk : diff.getUniHunks()) {
        out += QStringLiteral("@@ -%1,%2 +%3,%4 @@\n").arg(hunk.a).arg(hunk.b).arg(hunk.c).arg(hunk.d);
        appendLines(out, hunk.common[0]);
        appendLines(out, hunk.change);
        appendLines(out, hunk.common[1]);
    }
    return out;
}

} // namespace dreamrsi
