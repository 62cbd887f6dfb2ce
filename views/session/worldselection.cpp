#include "worldselection.h"

#include <QCoreApplication>
#include <QStringList>

namespace dreamrsi {

Result<int> selectWorld(const QList<WorldEntry> &worlds, const QString &select)
{
    auto fail = [](const QString &message) { return Result<int>::failure(message); };
    for (int i = 0; i < worlds.size(); ++i) {
        if (worlds.at(i).name == select)
            return Result<int>::success(i);
    }
    bool isNumber = false;
    const qint64 number = select.trimmed().toLongLong(&isNumber);
    if (!isNumber) {
        QStringList names;
        for (const WorldEntry &w : worlds)
            names.append(w.name);
        return fail(QCoreApplication::translate("dreamrsi::WorldSelection", "no world named '%1' (worlds: %2)")
                        .arg(select, names.join(QStringLiteral(", "))));
    }
    QList<int> matches;
    for (int i = 0; i < worlds.size(); ++i) {
        const auto &tree = worlds.at(i).tree;
        if (tree && tree->meta().iteration == number)
            matches.append(i);
    }
    if (matches.isEmpty()) {
        for (int i = 0; i < worlds.size(); ++i) {
            if (worlds.at(i).iteration != 0 && worlds.at(i).iteration == number)
                matches.append(i);
        }
    }
    if (matches.size() == 1)
        return Result<int>::success(matches.first());
    if (matches.isEmpty())
        return fail(QCoreApplication::translate("dreamrsi::WorldSelection", "no world is iteration %1").arg(number));
    QStringList names;
    for (int i : std::as_const(matches))
        names.append(worlds.at(i).name);
    return fail(QCoreApplication::translate("dreamrsi::WorldSelection", "iteration %1 is ambiguous: %2; give the world's name")
                    .arg(number)
                    .arg(names.join(QStringLiteral(", "))));
}

} // namespace dreamrsi
