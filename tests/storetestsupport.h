#pragma once

// The one helper the store-using suites share: wait for a store call and
// take its value, failing the test run loudly when the call failed.

#include "store/storetypes.h"

#include <QFuture>

namespace dreamrsi::test {

template<typename T>
T take(QFuture<StoreResult<T>> future)
{
    future.waitForFinished();
    const StoreResult<T> r = future.result();
    if (!r.ok())
        qFatal("store call failed: %s", qPrintable(r.error));
    return *r.value;
}

} // namespace dreamrsi::test
