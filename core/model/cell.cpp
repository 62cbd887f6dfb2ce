#include "cell.h"

#include <cmath>

namespace dreamrsi {

QStringList FailClass::known()
{
    return {QString::fromLatin1(Ok),          QString::fromLatin1(Compile), QString::fromLatin1(Runtime),
            QString::fromLatin1(Timeout),     QString::fromLatin1(Correctness),
            QString::fromLatin1(Resource),    QString::fromLatin1(Env),     QString::fromLatin1(Agent)};
}

bool FailClass::isKnown(const QString &failClass)
{
    return known().contains(failClass);
}

double Cell::effectiveScore() const
{
    if (!score || !std::isfinite(*score))
        return 0.0;
    return *score > 0.0 ? *score : 0.0;
}

bool Cell::isSuccess() const
{
    return evaluated && !error && failClass == QLatin1String(FailClass::Ok);
}

QString Cell::proposal() const
{
    return payload.value(QLatin1String("proposal")).toString();
}

QString Cell::program() const
{
    return payload.value(QLatin1String("program")).toString();
}

} // namespace dreamrsi
