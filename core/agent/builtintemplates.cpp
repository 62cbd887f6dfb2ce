#include "builtintemplates.h"

#include <QFile>

namespace dreamrsi::BuiltinTemplates {

QString load(const QString &name)
{
    QFile f(QStringLiteral(":/agent-templates/") + name);
    if (!f.open(QIODevice::ReadOnly))
        qFatal("built-in agent template %s is not compiled in", qPrintable(name));
    return QString::fromUtf8(f.readAll());
}

} // namespace dreamrsi::BuiltinTemplates
