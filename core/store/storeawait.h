#pragma once

#include "storetypes.h"

#include <QFuture>

namespace dreamrsi {

/// Waits for a ProjectStore call and gives its answer: for threads that may
/// block (a round's driver, a command's main thread), never the GUI thread,
/// which continues with QFuture::then instead. A store that stopped before
/// answering (closed, its thread gone) is a failure that says so.
template<typename T>
StoreResult<T> await(QFuture<StoreResult<T>> future)
{
    future.waitForFinished();
    if (future.isCanceled() || future.resultCount() == 0)
        return StoreResult<T>::failure(QStringLiteral("the project store stopped before answering"));
    return future.result();
}

} // namespace dreamrsi
