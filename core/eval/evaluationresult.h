#pragma once

#include <QJsonObject>
#include <QMetaType>
#include <QString>

#include "base/result.h"

#include <optional>

namespace dreamrsi {

/// The score protocol (docs/evaluators.md#the-score-json): what one evaluation reports.
///
/// `score` is larger-is-better and positive on success; the task's natural
/// metric is kept in `metrics`. `failClass` is one of the FailClass names
/// (core/model/cell.h); "ok" exactly when the candidate was evaluated without
/// error.
struct EvaluationResult
{
    std::optional<double> score;
    bool valid = false;
    QString failClass;
    std::optional<QString> error;
    std::optional<qint64> nValid;
    std::optional<qint64> nTotal;
    QJsonObject metrics;

    /// A successful result: valid, fail class "ok", no error.
    static EvaluationResult success(double score, QJsonObject metrics = {});
    /// A failed result of the given class, no score.
    static EvaluationResult failure(const QString &failClass, const QString &error, QJsonObject metrics = {});
    static EvaluationResult failure(const char *failClass, const QString &error, QJsonObject metrics = {});

    bool isSuccess() const;

    /// `{"score", "valid", "fail_class", "error", "n_valid", "n_total", "metrics"}`,
    /// absent optionals written as null.
    QJsonObject toJson() const;
    /// Reads the object written by toJson() (or by a custom evaluator). On a
    /// malformed object, a failure giving the reason.
    static Result<EvaluationResult> fromJson(const QJsonObject &object);
    /// A custom evaluator's stdout: the last non-empty line must be the JSON
    /// object. Anything else gives an `env` failure quoting the text.
    static EvaluationResult fromEvaluatorOutput(const QByteArray &standardOutput);

    /// Multi-line human summary (CLI).
    QString summary() const;
};

} // namespace dreamrsi

Q_DECLARE_METATYPE(dreamrsi::EvaluationResult)
