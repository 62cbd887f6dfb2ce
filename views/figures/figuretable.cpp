#include "figuretable.h"

#include <algorithm>

namespace dreamrsi {

namespace {
QString latexEscaped(QString s)
{
    s.replace(QLatin1Char('\\'), QStringLiteral("\\textbackslash{}"));
    for (const char c : {'&', '%', '$', '#', '_', '{', '}'})
        s.replace(QLatin1Char(c), QLatin1Char('\\') + QLatin1Char(c));
    s.replace(QStringLiteral("~"), QStringLiteral("\\textasciitilde{}"));
    s.replace(QStringLiteral("^"), QStringLiteral("\\textasciicircum{}"));
    s.replace(QStringLiteral("β"), QStringLiteral("$\\beta$"));
    s.replace(QStringLiteral("—"), QStringLiteral("---"));
    return s;
}

QString csvField(const QString &s)
{
    if (!s.contains(QLatin1Char(',')) && !s.contains(QLatin1Char('"')) && !s.contains(QLatin1Char('\n')))
        return s;
    QString quoted = s;
    quoted.replace(QStringLiteral("\""), QStringLiteral("\"\""));
    return QLatin1Char('"') + quoted + QLatin1Char('"');
}
} // namespace

QString FigureTable::toText() const
{
    QList<qsizetype> widths(header.size(), 0);
    auto widen = [&widths](const QStringList &row) {
        for (qsizetype i = 0; i < row.size(); ++i) {
            if (i >= widths.size())
                widths.append(0);
            widths[i] = std::max(widths.at(i), row.at(i).size());
        }
    };
    widen(header);
    for (const QStringList &r : rows)
        widen(r);
    QString out;
    auto line = [&](const QStringList &row) {
        QString l;
        for (qsizetype i = 0; i < row.size(); ++i)
            l += (i ? QStringLiteral("  ") : QString()) + row.at(i).leftJustified(widths.at(i));
        out += l.trimmed() + QLatin1Char('\n');
    };
    line(header);
    for (const QStringList &r : rows)
        line(r);
    return out;
}

QString FigureTable::toLatex() const
{
    const qsizetype columns = std::max<qsizetype>(header.size(), 1);
    QString out = QStringLiteral("\\begin{tabular}{l") + QString(columns - 1, QLatin1Char('r')) + QStringLiteral("}\n\\toprule\n");
    auto line = [&](const QStringList &row) {
        QStringList cells;
        for (const QString &c : row)
            cells.append(latexEscaped(c));
        out += cells.join(QStringLiteral(" & ")) + QStringLiteral(" \\\\\n");
    };
    line(header);
    out += QStringLiteral("\\midrule\n");
    for (const QStringList &r : rows)
        line(r);
    out += QStringLiteral("\\bottomrule\n\\end{tabular}\n");
    return out;
}

QString FigureTable::toCsv() const
{
    QString out;
    auto line = [&](const QStringList &row) {
        QStringList cells;
        for (const QString &c : row)
            cells.append(csvField(c));
        out += cells.join(QLatin1Char(',')) + QLatin1Char('\n');
    };
    line(header);
    for (const QStringList &r : rows)
        line(r);
    return out;
}

} // namespace dreamrsi
