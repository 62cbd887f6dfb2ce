#pragma once

#include <QString>

#include <optional>
#include <utility>

namespace dreamrsi {

/// The one result type of a fallible operation in core: either a value, or a
/// message saying what went wrong and where (file, iteration, cell, …).
///
/// Promises: exactly one of `value` and `error` is meaningful — ok() is true
/// iff `value` holds something, and then `error` is empty; a failure always
/// carries a non-empty message. It is a plain aggregate, cheap to move and
/// safe to pass between threads (QFuture<Result<T>>).
///
/// StoreResult<T> (core/store) is this type; TreeJson::ParseResult converts
/// to it with toResult(); functions that used `bool f(..., QString *error)`
/// return Result<Done> (or Result<T>) instead.
///
/// It lives in core/base, the one room every other room may include.
template<typename T>
struct Result
{
    std::optional<T> value;
    QString error;

    bool ok() const { return value.has_value(); }
    explicit operator bool() const { return ok(); }
    static Result success(T v) { return Result{std::move(v), QString()}; }
    static Result failure(QString message)
    {
        return Result{std::nullopt, message.isEmpty() ? QStringLiteral("unknown error") : std::move(message)};
    }
    /// The value, or `fallback` on failure.
    T valueOr(T fallback) const & { return value ? *value : std::move(fallback); }
    /// The same failure as another type (to pass an error up unchanged).
    template<typename U>
    Result<U> failureAs() const { return Result<U>::failure(error); }
};

/// Empty success value of a Result for operations that return nothing.
struct Done
{
};

} // namespace dreamrsi
