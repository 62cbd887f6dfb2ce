#include "commandoutput.h"

#include <QProcessEnvironment>

namespace dreamrsi {

namespace CommandOutput {

QString tail(const QByteArray &bytes, int limit)
{
    const QString text = QString::fromUtf8(bytes);
    if (text.size() <= limit)
        return text;
    return QStringLiteral("… (%1 earlier characters)\n").arg(text.size() - limit) + text.right(limit);
}

QString hideSecrets(QString text, const QStringList &allowedEnvironment)
{
    static const char *const markers[] = {"KEY", "TOKEN", "SECRET", "PASSWORD", "PASSWD", "CREDENTIAL"};
    const QProcessEnvironment parent = QProcessEnvironment::systemEnvironment();
    for (const QString &entry : allowedEnvironment) {
        const qsizetype eq = entry.indexOf(u'=');
        const QString name = (eq > 0 ? entry.left(eq) : entry).trimmed();
        const QString value = eq > 0 ? entry.mid(eq + 1) : parent.value(name);
        bool secret = false;
        for (const char *marker : markers)
            secret = secret || name.contains(QLatin1String(marker), Qt::CaseInsensitive);
        if (secret && value.size() >= 4)
            text.replace(value, QStringLiteral("[hidden]"));
    }
    return text;
}

QString modelName(const QString &configuredModel)
{
    return configuredModel.trimmed().isEmpty() ? QStringLiteral("command") : configuredModel.trimmed();
}

} // namespace CommandOutput

} // namespace dreamrsi
