#include "evaluationresult.h"

#include "model/cell.h"

#include <QJsonDocument>
#include <QJsonValue>
#include <QList>

#include <cmath>

namespace dreamrsi {

EvaluationResult EvaluationResult::success(double score, QJsonObject metrics)
{
    EvaluationResult r;
    r.score = score;
    r.valid = true;
    r.failClass = QString::fromLatin1(FailClass::Ok);
    r.metrics = std::move(metrics);
    return r;
}

EvaluationResult EvaluationResult::failure(const QString &failClass, const QString &error, QJsonObject metrics)
{
    EvaluationResult r;
    r.valid = false;
    r.failClass = failClass;
    r.error = error;
    r.metrics = std::move(metrics);
    return r;
}

EvaluationResult EvaluationResult::failure(const char *failClass, const QString &error, QJsonObject metrics)
{
    return failure(QString::fromLatin1(failClass), error, std::move(metrics));
}

bool EvaluationResult::isSuccess() const
{
    return !error && failClass == QLatin1String(FailClass::Ok);
}

QJsonObject EvaluationResult::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("score"), score && std::isfinite(*score) ? QJsonValue(*score) : QJsonValue());
    o.insert(QStringLiteral("valid"), valid);
    o.insert(QStringLiteral("fail_class"), failClass);
    o.insert(QStringLiteral("error"), error ? QJsonValue(*error) : QJsonValue());
    o.insert(QStringLiteral("n_valid"), nValid ? QJsonValue(*nValid) : QJsonValue());
    o.insert(QStringLiteral("n_total"), nTotal ? QJsonValue(*nTotal) : QJsonValue());
    o.insert(QStringLiteral("metrics"), metrics);
    return o;
}

Result<EvaluationResult> EvaluationResult::fromJson(const QJsonObject &o)
{
    auto fail = [](const QString &why) { return Result<EvaluationResult>::failure(why); };
    EvaluationResult r;
    const QJsonValue score = o.value(QStringLiteral("score"));
    if (score.isDouble())
        r.score = score.toDouble();
    else if (!score.isNull() && !score.isUndefined())
        return fail(QStringLiteral("'score' must be a number or null"));

    const QJsonValue err = o.value(QStringLiteral("error"));
    if (err.isString())
        r.error = err.toString();
    else if (!err.isNull() && !err.isUndefined())
        return fail(QStringLiteral("'error' must be a string or null"));

    const QJsonValue fc = o.value(QStringLiteral("fail_class"));
    if (fc.isString())
        r.failClass = fc.toString();
    else if (fc.isNull() || fc.isUndefined())
        r.failClass = QString::fromLatin1(r.score && !r.error ? FailClass::Ok : FailClass::Agent);
    else
        return fail(QStringLiteral("'fail_class' must be a string"));

    const QJsonValue valid = o.value(QStringLiteral("valid"));
    if (valid.isBool())
        r.valid = valid.toBool();
    else if (valid.isNull() || valid.isUndefined())
        r.valid = r.failClass == QLatin1String(FailClass::Ok);
    else
        return fail(QStringLiteral("'valid' must be a boolean"));

    for (const auto &[key, target] : {std::pair{QStringLiteral("n_valid"), &r.nValid},
                                      std::pair{QStringLiteral("n_total"), &r.nTotal}}) {
        const QJsonValue v = o.value(key);
        if (v.isDouble()) {
            const double d = v.toDouble();
            if (d != std::floor(d) || d < 0)
                return fail(QStringLiteral("'%1' must be a non-negative integer").arg(key));
            *target = qint64(d);
        } else if (!v.isNull() && !v.isUndefined()) {
            return fail(QStringLiteral("'%1' must be an integer or null").arg(key));
        }
    }
    const QJsonValue metrics = o.value(QStringLiteral("metrics"));
    if (metrics.isObject())
        r.metrics = metrics.toObject();
    else if (!metrics.isNull() && !metrics.isUndefined())
        return fail(QStringLiteral("'metrics' must be an object"));
    if (r.score && !std::isfinite(*r.score))
        return fail(QStringLiteral("'score' is not finite"));
    return Result<EvaluationResult>::success(std::move(r));
}

EvaluationResult EvaluationResult::fromEvaluatorOutput(const QByteArray &standardOutput)
{
    const QList<QByteArray> lines = standardOutput.split('\n');
    QByteArray last;
    for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
        if (!it->trimmed().isEmpty()) {
            last = it->trimmed();
            break;
        }
    }
    auto quote = [](const QByteArray &text) {
        QString s = QString::fromUtf8(text);
        if (s.size() > 300)
            s = s.left(300) + QStringLiteral("…");
        return s;
    };
    if (last.isEmpty())
        return failure(FailClass::Env, QStringLiteral("the evaluator printed no score JSON (stdout was empty)"));
    QJsonParseError parseError{};
    const QJsonDocument doc = QJsonDocument::fromJson(last, &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isObject())
        return failure(FailClass::Env, QStringLiteral("the evaluator's last stdout line is not a JSON object: \"%1\"")
                                           .arg(quote(last)));
    const Result<EvaluationResult> r = fromJson(doc.object());
    if (!r)
        return failure(FailClass::Env,
                       QStringLiteral("the evaluator's score JSON is malformed (%1): \"%2\"").arg(r.error, quote(last)));
    return *r.value;
}

QString EvaluationResult::summary() const
{
    QString s;
    if (isSuccess())
        s += QStringLiteral("ok: score %1\n").arg(score ? QString::number(*score, 'g', 12) : QStringLiteral("none"));
    else
        s += QStringLiteral("failed (%1): %2\n").arg(failClass, error.value_or(QStringLiteral("no message")));
    if (nValid || nTotal)
        s += QStringLiteral("  passed %1 of %2\n")
                 .arg(nValid ? QString::number(*nValid) : QStringLiteral("?"),
                      nTotal ? QString::number(*nTotal) : QStringLiteral("?"));
    for (auto it = metrics.constBegin(); it != metrics.constEnd(); ++it) {
        const QJsonValue v = it.value();
        QString text;
        if (v.isDouble())
            text = QString::number(v.toDouble(), 'g', 12);
        else if (v.isString())
            text = v.toString();
        else if (v.isBool())
            text = v.toBool() ? QStringLiteral("true") : QStringLiteral("false");
        else
            text = QString::fromUtf8(QJsonDocument(v.isArray() ? QJsonDocument(v.toArray()) : QJsonDocument(v.toObject()))
                                         .toJson(QJsonDocument::Compact));
        if (text.size() > 200)
            text = text.left(200) + QStringLiteral("…");
        s += QStringLiteral("  %1: %2\n").arg(it.key(), text);
    }
    return s;
}

} // namespace dreamrsi
