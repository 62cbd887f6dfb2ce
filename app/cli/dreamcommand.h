#pragma once

#include <QStringList>
#include <QTextStream>

namespace dreamrsi {

/// `dreamrsi dream`: dreaming over a project's finished iterations (docs/online.md#dreaming, #commands).
int runDreamCommand(const QStringList &args, QTextStream &out, QTextStream &err);
/// `dreamrsi loop`: T iterations of round → dream → approve (docs/online.md#the-recursive-loop, #commands).
int runLoopCommand(const QStringList &args, QTextStream &out, QTextStream &err);
/// True when `loop` is asked for the counterfactual loop (--worlds or --world-dir).
bool isCounterfactualLoop(const QStringList &args);
/// `dreamrsi loop --worlds …`: the counterfactual loop over recorded worlds.
int runCounterfactualLoopCommand(const QStringList &args, QTextStream &out, QTextStream &err);

} // namespace dreamrsi
