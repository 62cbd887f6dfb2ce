#include "answerparser.h"

#include <QStringList>

namespace dreamrsi {

namespace {

struct Fence
{
    QChar ch;
    int length = 0;
    QString info;
};

/// A fence line: up to three spaces, then three or more ` or ~.
bool fenceOf(const QString &line, Fence *fence)
{
    int i = 0;
    while (i < line.size() && i < 4 && line.at(i) == u' ')
        ++i;
    if (i > 3 || i >= line.size())
        return false;
    const QChar ch = line.at(i);
    if (ch != u'`' && ch != u'~')
        return false;
    int n = 0;
    while (i + n < line.size() && line.at(i + n) == ch)
        ++n;
    if (n < 3)
        return false;
    const QString info = line.mid(i + n).trimmed();
    if (ch == u'`' && info.contains(u'`'))
        return false;
    fence->ch = ch;
    fence->length = n;
    fence->info = info;
    return true;
}

} // namespace

ParsedAnswer parseAnswer(const QString &text)
{
    ParsedAnswer result;
    QString normalised = text;
    normalised.replace(QStringLiteral("\r\n"), QStringLiteral("\n"));
    const QStringList lines = normalised.split(u'\n');

    int lastStart = -1; // line of the opening fence of the last complete block
    int lastEnd = -1;   // line of its closing fence
    QString lastInfo;
    bool open = false;
    int openStart = -1;
    Fence opening;
    for (int i = 0; i < lines.size(); ++i) {
        Fence f;
        if (!fenceOf(lines.at(i), &f))
            continue;
        if (!open) {
            open = true;
            openStart = i;
            opening = f;
        } else if (f.ch == opening.ch && f.length >= opening.length && f.info.isEmpty()) {
            open = false;
            lastStart = openStart;
            lastEnd = i;
            lastInfo = opening.info;
        }
    }
    if (open) {
        result.error = QStringLiteral("the answer's last fenced code block (opened on line %1) is never closed: "
                                      "the answer was probably cut off (output token limit?)")
                           .arg(openStart + 1);
        result.proposal = normalised.trimmed();
        return result;
    }
    if (lastStart < 0) {
        result.error = QStringLiteral("the answer has no fenced code block (``` … ```), so there is no program");
        result.proposal = normalised.trimmed();
        return result;
    }
    QStringList program = lines.mid(lastStart + 1, lastEnd - lastStart - 1);
    result.program = program.join(u'\n');
    if (!result.program.isEmpty() && !result.program.endsWith(u'\n'))
        result.program.append(u'\n');
    result.language = lastInfo.section(u' ', 0, 0);
    QStringList rest = lines.mid(0, lastStart);
    rest.append(lines.mid(lastEnd + 1));
    result.proposal = rest.join(u'\n').trimmed();
    if (result.program.trimmed().isEmpty()) {
        result.error = QStringLiteral("the answer's last fenced code block is empty, so there is no program");
        return result;
    }
    result.ok = true;
    return result;
}

} // namespace dreamrsi
