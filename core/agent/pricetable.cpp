#include "pricetable.h"

#include <QFile>
#include <QJsonDocument>
#include <QMutex>
#include <QSaveFile>

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

const QLatin1String kFormat("dreamrsi-prices/1");

struct CurrentTable
{
    QMutex mutex;
    bool initialised = false;
    PriceTable table;
};

CurrentTable &currentTable()
{
    static CurrentTable instance;
    return instance;
}

} // namespace

PriceTable PriceTable::defaults()
{
    // USD per million tokens (input, output): the providers' public list
    // prices for standard (non-batch, short-context) use.
    static const struct
    {
        const char *model;
        double in;
        double out;
    } table[] = {
        {"gpt-4o", 2.50, 10.00},
        {"gpt-4o-mini", 0.15, 0.60},
        {"gpt-4.1", 2.00, 8.00},
        {"gpt-4.1-mini", 0.40, 1.60},
        {"gpt-4.1-nano", 0.10, 0.40},
        {"gpt-5", 1.25, 10.00},
        {"gpt-5-mini", 0.25, 2.00},
        {"gpt-5-nano", 0.05, 0.40},
        {"o3", 2.00, 8.00},
        {"o4-mini", 1.10, 4.40},
        {"claude-opus-4-1", 15.00, 75.00},
        {"claude-opus-4", 15.00, 75.00},
        {"claude-sonnet-4-5", 3.00, 15.00},
        {"claude-sonnet-4", 3.00, 15.00},
        {"claude-haiku-4-5", 1.00, 5.00},
        {"claude-3-5-haiku", 0.80, 4.00},
        {"gemini-2.5-pro", 1.25, 10.00},
        {"gemini-2.5-flash", 0.30, 2.50},
        {"gemini-2.5-flash-lite", 0.10, 0.40},
        {"gemini-2.0-flash", 0.10, 0.40},
    };
    PriceTable prices;
    for (const auto &row : table)
        prices.setPrice({QString::fromLatin1(row.model), row.in, row.out});
    return prices;
}

void PriceTable::setPrice(const ModelPrice &price)
{
    ModelPrice p = price;
    p.model = p.model.trimmed();
    if (p.model.isEmpty())
        return;
    auto it = std::lower_bound(m_prices.begin(), m_prices.end(), p.model,
                               [](const ModelPrice &a, const QString &name) { return a.model < name; });
    if (it != m_prices.end() && it->model == p.model)
        *it = p;
    else
        m_prices.insert(it, p);
}

bool PriceTable::remove(const QString &model)
{
    return m_prices.removeIf([&](const ModelPrice &p) { return p.model == model; }) > 0;
}

std::optional<ModelPrice> PriceTable::priceFor(const QString &model) const
{
    const ModelPrice *best = nullptr;
    for (const ModelPrice &p : m_prices) {
        if (p.model == model)
            return p;
        if (model.size() > p.model.size() && model.startsWith(p.model)) {
            const QChar next = model.at(p.model.size());
            if ((next == u'-' || next == u'@' || next == u':') && (!best || p.model.size() > best->model.size()))
                best = &p;
        }
    }
    if (best)
        return *best;
    return std::nullopt;
}

double PriceTable::usd(const QString &model, qint64 tokensIn, qint64 tokensOut) const
{
    const auto price = priceFor(model);
    if (!price)
        return 0.0;
    return (double(tokensIn) * price->inputPerMillion + double(tokensOut) * price->outputPerMillion) / 1e6;
}

QJsonObject PriceTable::toJson() const
{
    QJsonObject models;
    for (const ModelPrice &p : m_prices)
        models.insert(p.model, QJsonObject{{QStringLiteral("input"), p.inputPerMillion},
                                           {QStringLiteral("output"), p.outputPerMillion}});
    return QJsonObject{{QStringLiteral("format"), kFormat}, {QStringLiteral("models"), models}};
}

Result<PriceTable> PriceTable::fromJson(const QJsonObject &json)
{
    auto fail = [](const QString &message) { return Result<PriceTable>::failure(message); };
    const QString format = json.value(QStringLiteral("format")).toString();
    if (!format.isEmpty() && format != kFormat)
        return fail(QStringLiteral("price table: unknown format '%1' (expected %2)").arg(format, kFormat));
    if (!json.value(QStringLiteral("models")).isObject())
        return fail(QStringLiteral("price table: 'models' must be an object of model → {input, output}"));
    const QJsonObject models = json.value(QStringLiteral("models")).toObject();
    PriceTable table;
    for (auto it = models.begin(); it != models.end(); ++it) {
        const QJsonObject entry = it.value().toObject();
        const QJsonValue in = entry.value(QStringLiteral("input"));
        const QJsonValue out = entry.value(QStringLiteral("output"));
        if (!in.isDouble() || !out.isDouble() || in.toDouble() < 0 || out.toDouble() < 0
            || !std::isfinite(in.toDouble()) || !std::isfinite(out.toDouble()))
            return fail(QStringLiteral("price table: model '%1' needs non-negative numbers 'input' and 'output' "
                                       "(USD per million tokens)")
                            .arg(it.key()));
        if (it.key().trimmed().isEmpty())
            return fail(QStringLiteral("price table: a model name is empty"));
        table.setPrice({it.key(), in.toDouble(), out.toDouble()});
    }
    return Result<PriceTable>::success(std::move(table));
}

Result<Done> PriceTable::save(const QString &path) const
{
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly) || file.write(QJsonDocument(toJson()).toJson(QJsonDocument::Indented)) < 0
        || !file.commit())
        return Result<Done>::failure(QStringLiteral("cannot write the price table %1: %2").arg(path, file.errorString()));
    return Result<Done>::success({});
}

Result<PriceTable> PriceTable::load(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return Result<PriceTable>::failure(QStringLiteral("cannot read the price table %1: %2").arg(path, file.errorString()));
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &parseError);
    if (!doc.isObject())
        return Result<PriceTable>::failure(
            QStringLiteral("price table %1 is not a JSON object: %2").arg(path, parseError.errorString()));
    Result<PriceTable> table = fromJson(doc.object());
    if (!table.ok())
        table.error = QStringLiteral("%1 (%2)").arg(table.error, path);
    return table;
}

PriceTable PriceTable::current()
{
    CurrentTable &c = currentTable();
    QMutexLocker lock(&c.mutex);
    if (!c.initialised) {
        c.initialised = true;
        c.table = defaults();
        const QString path = qEnvironmentVariable("DREAMRSI_PRICE_TABLE");
        if (!path.isEmpty()) {
            if (const Result<PriceTable> loaded = load(path); loaded.ok())
                c.table = *loaded.value;
            else
                qWarning("%s; using the default prices", qPrintable(loaded.error));
        }
    }
    return c.table;
}

void PriceTable::setCurrent(const PriceTable &table)
{
    CurrentTable &c = currentTable();
    QMutexLocker lock(&c.mutex);
    c.initialised = true;
    c.table = table;
}

} // namespace dreamrsi
