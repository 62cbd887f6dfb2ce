#include "cellpath.h"

#include "unifieddiff.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

std::optional<double> finiteOrNothing(const std::optional<double> &v)
{
    return v && std::isfinite(*v) ? v : std::nullopt;
}

QString numberOrNone(const std::optional<double> &v)
{
    return v ? QString::number(*v, 'g', 8) : QStringLiteral("–");
}

QString signedNumber(const std::optional<double> &v)
{
    if (!v)
        return QStringLiteral("–");
    return (*v >= 0 ? QStringLiteral("+") : QString()) + QString::number(*v, 'g', 6);
}

/// A Markdown table cell: pipes escaped, on one line.
QString tableCell(QString text)
{
    text.replace(QLatin1Char('\n'), QLatin1Char(' '));
    return text.replace(QLatin1Char('|'), QStringLiteral("\\|"));
}

/// A code fence longer than any run of backticks inside `text`.
QString fenceFor(const QString &text)
{
    int longest = 0, run = 0;
    for (const QChar c : text) {
        run = c == QLatin1Char('`') ? run + 1 : 0;
        longest = std::max(longest, run);
    }
    return QString(std::max(3, longest + 1), QLatin1Char('`'));
}

QString originId(const Cell &cell)
{
    return cell.payload.value(QLatin1String("origin")).toObject().value(QLatin1String("id")).toString();
}

} // namespace

int CellPath::realParent(const DiscoveryTree &tree, int cell)
{
    if (cell < 0 || cell >= tree.cellCount())
        return -1;
    const Cell &c = tree.cells().at(cell);
    const QString forkedFrom = c.payload.value(QLatin1String("forked_from")).toString();
    if (!forkedFrom.isEmpty())
        return tree.indexOfId(forkedFrom);
    return tree.parentIndex(cell);
}

CellPath::Path CellPath::to(const DiscoveryTree &tree, int cell)
{
    Path path;
    if (cell < 0 || cell >= tree.cellCount())
        return path;
    QList<int> chain;
    QSet<int> seen; // a tree file could name a fork's parent in a circle
    for (int at = cell; at >= 0 && !seen.contains(at); at = realParent(tree, at)) {
        seen.insert(at);
        chain.append(at);
    }
    std::reverse(chain.begin(), chain.end());
    const Cell &first = tree.cells().at(chain.first());
    path.fromOrphan = first.payload.value(QLatin1String("orphan")).toBool();
    // The score a step improved on: the nearest scored step before it (a
    // failed parent has none, and its child's gain is over the program
    // the parent came from), else the baseline.
    std::optional<double> before = path.fromOrphan ? std::nullopt : finiteOrNothing(tree.meta().baselineScore);
    int beforeStep = -1;
    for (const int at : std::as_const(chain)) {
        Step s;
        s.cell = at;
        s.score = finiteOrNothing(tree.cells().at(at).score);
        if (s.score && before) {
            s.gain = *s.score - *before;
            s.gainFrom = beforeStep;
        }
        if (s.score) {
            before = s.score;
            beforeStep = int(path.steps.size());
        }
        path.steps.append(s);
    }
    return path;
}

QString CellPath::parentProgram(const DiscoveryTree &tree, const Path &path, int step)
{
    if (step < 0 || step >= path.steps.size())
        return {};
    if (step > 0)
        return tree.cells().at(path.steps.at(step - 1).cell).program();
    if (path.fromOrphan)
        return {};
    return tree.meta().payload.value(QLatin1String("initial_program")).toString();
}

QString CellPath::parentName(const DiscoveryTree &tree, const Path &path, int step)
{
    if (step > 0 && step < path.steps.size())
        return tree.cells().at(path.steps.at(step - 1).cell).id;
    return path.fromOrphan ? QStringLiteral("missing parent") : QStringLiteral("initial program");
}

QString CellPath::proposalHead(const Cell &cell, int lines)
{
    return headOf(cell.proposal(), lines);
}

QString CellPath::headOf(const QString &text, int lines)
{
    QStringList head;
    const QStringList all = text.split(QLatin1Char('\n'));
    for (const QString &line : all) {
        if (head.size() >= lines)
            break;
        if (!line.trimmed().isEmpty())
            head.append(line.trimmed());
    }
    return head.join(QLatin1Char('\n'));
}

QJsonObject CellPath::toJson(const DiscoveryTree &tree, const Path &path)
{
    QJsonArray steps;
    for (const Step &s : path.steps) {
        steps.append(QJsonObject{{QStringLiteral("id"), tree.cells().at(s.cell).id},
                                 {QStringLiteral("score"), s.score ? QJsonValue(*s.score) : QJsonValue()},
                                 {QStringLiteral("gain"), s.gain ? QJsonValue(*s.gain) : QJsonValue()}});
    }
    return QJsonObject{{QStringLiteral("path"), steps}};
}

QString CellPath::toMarkdown(const DiscoveryTree &tree, const Path &path, const QString &title)
{
    QString md;
    if (path.steps.isEmpty())
        return md;
    const Cell &last = tree.cells().at(path.steps.last().cell);
    const bool imported = !originId(last).isEmpty();
    md += QStringLiteral("# Path to %1 in %2\n\n").arg(last.id, title);
    if (path.fromOrphan) {
        md += QStringLiteral("%1 step(s) from an orphan whose parent program is missing from the run.\n\n")
                  .arg(path.steps.size());
    } else {
        md += QStringLiteral("%1 step(s) from the initial program (baseline score %2).\n\n")
                  .arg(path.steps.size())
                  .arg(numberOrNone(finiteOrNothing(tree.meta().baselineScore)));
    }
    md += imported ? QStringLiteral("| step | cell | program | score | gain | proposal |\n| ---: | --- | --- | ---: | ---: | --- |\n")
                   : QStringLiteral("| step | cell | score | gain | proposal |\n| ---: | --- | ---: | ---: | --- |\n");
    for (qsizetype i = 0; i < path.steps.size(); ++i) {
        const Step &s = path.steps.at(i);
        const Cell &c = tree.cells().at(s.cell);
        const QString head = tableCell(proposalHead(c, 1));
        if (imported)
            md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |\n")
                      .arg(i + 1)
                      .arg(c.id, tableCell(originId(c)), numberOrNone(s.score), signedNumber(s.gain), head);
        else
            md += QStringLiteral("| %1 | %2 | %3 | %4 | %5 |\n").arg(i + 1).arg(c.id, numberOrNone(s.score), signedNumber(s.gain), head);
    }
    for (qsizetype i = 0; i < path.steps.size(); ++i) {
        const Step &s = path.steps.at(i);
        const Cell &c = tree.cells().at(s.cell);
        md += QStringLiteral("\n## %1. %2: score %3 (%4)\n\n").arg(i + 1).arg(c.id, numberOrNone(s.score), signedNumber(s.gain));
        if (const QString id = originId(c); !id.isEmpty())
            md += QStringLiteral("Program `%1` of the run.\n\n").arg(id);
        if (c.failClass != QLatin1String(FailClass::Ok))
            md += QStringLiteral("Outcome: %1%2.\n\n").arg(c.failClass, c.error ? QStringLiteral(" (%1)").arg(c.error->trimmed()) : QString());
        const QString head = proposalHead(c);
        if (!head.isEmpty()) {
            for (const QString &line : head.split(QLatin1Char('\n')))
                md += QStringLiteral("> %1\n").arg(line);
            md += QLatin1Char('\n');
        }
        const int step = int(i);
        const QString diff = unifiedDiff(parentProgram(tree, path, step), c.program(), parentName(tree, path, step), c.id);
        if (diff.isEmpty()) {
            md += QStringLiteral("The program is identical to its parent's (%1).\n").arg(parentName(tree, path, step));
        } else {
            const QString fence = fenceFor(diff);
            md += fence + QStringLiteral("diff\n") + diff + fence + QLatin1Char('\n');
        }
    }
    return md;
}

} // namespace dreamrsi
