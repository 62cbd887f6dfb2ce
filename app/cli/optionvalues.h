#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>

#include "base/result.h"

namespace dreamrsi::OptionValues {

// Number-valued command-line options, read one way by every command: a
// rejected value gives a message naming the option and what was given.

/// A finite number in [low, high]; a failure otherwise.
Result<double> number(const QString &option, const QString &text, double low, double high);

/// A whole number in [low, high]; a failure otherwise.
Result<qint64> integer(const QString &option, const QString &text, qint64 low, qint64 high);

/// A comma-separated list of β values, each in [0, 1], not empty.
Result<QList<double>> betas(const QString &option, const QString &text);

} // namespace dreamrsi::OptionValues
