#pragma once

// The demo project's trees (tests/data/demo), read once per call: fixtures
// for the suites that show them (tst_models, tst_gui_replay).

#include "model/treejson.h"

#include <QString>

#include <memory>

namespace dreamrsi::test {

inline std::shared_ptr<const DiscoveryTree> demoTree(const char *name)
{
    auto parsed = TreeJson::readFile(QStringLiteral(DREAMRSI_SOURCE_DIR "/tests/data/demo/") + QLatin1String(name));
    if (!parsed.ok())
        qFatal("%s", qPrintable(parsed.error.message));
    return std::make_shared<const DiscoveryTree>(std::move(*parsed.tree));
}

} // namespace dreamrsi::test
