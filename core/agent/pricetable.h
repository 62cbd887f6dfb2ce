#pragma once

#include "base/result.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace dreamrsi {

/// USD per million tokens of one model.
struct ModelPrice
{
    QString model;
    double inputPerMillion = 0.0;
    double outputPerMillion = 0.0;

    friend bool operator==(const ModelPrice &, const ModelPrice &) = default;
};

/// The price table of docs/online.md#cost-and-budgets: USD per million input and output tokens
/// per model, editable by the user (Settings page, or a JSON file).
///
/// Promises:
/// - lookup is by exact model name first, then by the longest listed name
///   that is a prefix of the model followed by '-', '@' or ':' (so a dated
///   "claude-sonnet-4-5-20250929" is priced as "claude-sonnet-4-5");
/// - usd() is tokens × price / 10^6, and 0 for a model with no price;
/// - JSON form: {"format": "dreamrsi-prices/1", "models": {"NAME": {"input": X, "output": Y}}};
///   fromJson() rejects negative or non-numeric prices naming the model;
/// - current() is one process-wide table (thread-safe), the defaults until
///   someone installs another (the GUI from its settings, the CLI from
///   $DREAMRSI_PRICE_TABLE, a JSON file read at first use).
class PriceTable
{
public:
    PriceTable() = default;

    /// Public list prices of common models (USD per million tokens) at the
    /// time of writing; users correct them in Settings.
    static PriceTable defaults();

    QList<ModelPrice> prices() const { return m_prices; }
    bool isEmpty() const { return m_prices.isEmpty(); }
    /// Adds or replaces the price of `price.model` (names are trimmed; empty ignored).
    void setPrice(const ModelPrice &price);
    bool remove(const QString &model);
    std::optional<ModelPrice> priceFor(const QString &model) const;
    double usd(const QString &model, qint64 tokensIn, qint64 tokensOut) const;

    QJsonObject toJson() const;
    static Result<PriceTable> fromJson(const QJsonObject &json);
    Result<Done> save(const QString &path) const;
    static Result<PriceTable> load(const QString &path);

    static PriceTable current();
    static void setCurrent(const PriceTable &table);

    friend bool operator==(const PriceTable &, const PriceTable &) = default;

private:
    QList<ModelPrice> m_prices; ///< sorted by model name
};

} // namespace dreamrsi
