#pragma once

#include <QJsonValue>

#include <optional>

namespace dreamrsi {

/// A number that may be missing as JSON: the number, or null.
inline QJsonValue jsonNumber(const std::optional<double> &x)
{
    return x ? QJsonValue(*x) : QJsonValue(QJsonValue::Null);
}

} // namespace dreamrsi
