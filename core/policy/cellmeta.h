#pragma once

#include <QString>
#include <QStringList>

namespace dreamrsi {

/// What a policy may know about a cell before it is revealed (docs/policy-api.md#metaid
/// `meta(id)`): its place in the tree and its tags, never its outcome.
/// `parentId` is empty for attempt 0.
struct CellMeta
{
    QString id;
    int branch = 0;
    int attempt = 0;
    QString parentId;
    qint64 seq = 0;
    QStringList tags;

    friend bool operator==(const CellMeta &, const CellMeta &) = default;
};

} // namespace dreamrsi
