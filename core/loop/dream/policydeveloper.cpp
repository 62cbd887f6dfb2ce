#include "policydeveloper.h"

#include <QStringList>

namespace dreamrsi {

PolicyDeveloper::~PolicyDeveloper() = default;

std::optional<QString> lastFencedCodeBlock(const QString &markdown)
{
    const QStringList lines = markdown.split(QLatin1Char('\n'));
    std::optional<QString> last;
    QString fence;     // the opening fence while inside a block
    QStringList body;
    for (const QString &raw : lines) {
        QString line = raw;
        if (line.endsWith(QLatin1Char('\r')))
            line.chop(1);
        const QString trimmed = line.trimmed();
        if (fence.isEmpty()) {
            if (trimmed.startsWith(QLatin1String("```")) || trimmed.startsWith(QLatin1String("~~~"))) {
                const QChar c = trimmed.at(0);
                qsizetype n = 0;
                while (n < trimmed.size() && trimmed.at(n) == c)
                    ++n;
                fence = trimmed.left(n);
                body.clear();
            }
            continue;
        }
        if (trimmed.startsWith(fence) && trimmed.mid(fence.size()).trimmed().isEmpty()
            && !trimmed.mid(fence.size()).contains(fence.at(0))) {
            last = body.join(QLatin1Char('\n'));
            fence.clear();
            continue;
        }
        body.append(line);
    }
    if (!fence.isEmpty()) {
        while (!body.isEmpty() && body.constLast().trimmed().isEmpty())
            body.removeLast();
        if (!body.isEmpty())
            last = body.join(QLatin1Char('\n'));
    }
    if (last && last->trimmed().isEmpty())
        return std::nullopt;
    return last;
}

} // namespace dreamrsi
