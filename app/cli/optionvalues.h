#pragma once

#include <QList>
#include <QString>
#include <QtGlobal>

#include <optional>

namespace dreamrsi::OptionValues {

// Number-valued command-line options, read one way by every command: a
// rejected value gives a message naming the option and what was given.

/// A finite number in [low, high]; nothing (and *error) otherwise.
std::optional<double> number(const QString &option, const QString &text, double low, double high, QString *error);

/// A whole number in [low, high]; nothing (and *error) otherwise.
std::optional<qint64> integer(const QString &option, const QString &text, qint64 low, qint64 high, QString *error);

/// A comma-separated list of β values, each in [0, 1], not empty.
std::optional<QList<double>> betas(const QString &option, const QString &text, QString *error);

} // namespace dreamrsi::OptionValues
