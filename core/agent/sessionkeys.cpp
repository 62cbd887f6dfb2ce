#include "sessionkeys.h"

#include <QHash>
#include <QMutex>

namespace dreamrsi {

namespace {

struct KeyStore
{
    QMutex mutex;
    QHash<QString, QString> keys;
};

KeyStore &store()
{
    static KeyStore instance;
    return instance;
}

} // namespace

void SessionKeys::set(const QString &kind, const QString &key)
{
    KeyStore &s = store();
    QMutexLocker lock(&s.mutex);
    const QString trimmed = key.trimmed();
    if (trimmed.isEmpty())
        s.keys.remove(kind);
    else
        s.keys.insert(kind, trimmed);
}

QString SessionKeys::get(const QString &kind)
{
    KeyStore &s = store();
    QMutexLocker lock(&s.mutex);
    return s.keys.value(kind);
}

void SessionKeys::clear()
{
    KeyStore &s = store();
    QMutexLocker lock(&s.mutex);
    s.keys.clear();
}

} // namespace dreamrsi
