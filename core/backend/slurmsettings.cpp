#include "slurmsettings.h"

namespace dreamrsi {

Result<QStringList> SlurmSettings::splitArguments(const QString &text)
{
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote;
    for (const QChar c : text) {
        if (!quote.isNull()) {
            if (c == quote)
                quote = QChar();
            else
                word += c;
        } else if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord)
                words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (!quote.isNull())
        return Result<QStringList>::failure(
            QStringLiteral("unterminated %1 quote in the sbatch arguments '%2'").arg(quote, text));
    if (inWord)
        words << word;
    return Result<QStringList>::success(words);
}

} // namespace dreamrsi
