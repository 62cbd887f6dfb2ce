#include "treejsonfast.h"

#include <QJsonArray>

#include <simdjson.h>

#include <cmath>
#include <string_view>
#include <vector>

namespace dreamrsi::TreeJson::detail {

namespace {

namespace dom = simdjson::dom;

constexpr double MaxExactInteger = 9007199254740992.0; // 2^53
/// Deeper documents go to the reference reading, which has its own limit (1024).
constexpr size_t MaxDepth = 256;
/// Larger documents go to the reference reading, which has its own size limits.
constexpr qsizetype MaxFastBytes = qsizetype(64) * 1024 * 1024;

/// Short strings that repeat from cell to cell (fail classes, tags, error
/// texts) are made into QStrings once per document and shared after that.
class Interner
{
public:
    QString operator()(std::string_view s)
    {
        for (const auto &[bytes, string] : m_seen) {
            if (bytes == s)
                return string;
        }
        QString string = QString::fromUtf8(s.data(), qsizetype(s.size()));
        if (m_seen.size() < Capacity)
            m_seen.emplace_back(s, string);
        return string;
    }

private:
    static constexpr size_t Capacity = 48;
    std::vector<std::pair<std::string_view, QString>> m_seen; ///< views into the parser's document
};

/// Every helper returns false (or nothing) when the reference reading must decide.
struct Walker
{
    /// The number as QJsonValue::toDouble() gives it after QJsonDocument read it.
    static bool number(dom::element e, double *out)
    {
        switch (e.type()) {
        case dom::element_type::INT64: *out = double(int64_t(e)); return true;
        case dom::element_type::UINT64: *out = double(uint64_t(e)); return true;
        case dom::element_type::DOUBLE: {
            const double d = double(e);
            // A fraction or exponent that comes out zero or subnormal may be an
            // underflow, which QJsonDocument rejects ("1e-400") and simdjson
            // rounds: let the reference decide. (An integer text is INT64 here.)
            if (d == 0.0 || std::fpclassify(d) == FP_SUBNORMAL)
                return false;
            *out = d;
            return std::isfinite(d);
        }
        default: return false;
        }
    }

    static bool integer(dom::element e, double min, double max, qint64 *out)
    {
        double d = 0;
        if (!number(e, &d) || d != std::floor(d) || d < min || d > max)
            return false;
        *out = qint64(d);
        return true;
    }

    static QString string(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

    /// A payload value exactly as QJsonDocument represents it; false for repeated keys.
    static bool value(dom::element e, QJsonValue *out)
    {
        switch (e.type()) {
        case dom::element_type::NULL_VALUE: *out = QJsonValue(QJsonValue::Null); return true;
        case dom::element_type::BOOL: *out = QJsonValue(bool(e)); return true;
        case dom::element_type::INT64: *out = QJsonValue(qint64(int64_t(e))); return true;
        case dom::element_type::UINT64: *out = QJsonValue(double(uint64_t(e))); return true;
        case dom::element_type::DOUBLE: {
            double d = 0;
            // QJsonValue(double) may keep an integral value as an integer, which
            // QJsonDocument's reading does not ("1.0", "1e20"): the reference decides.
            if (!number(e, &d) || d == std::floor(d))
                return false;
            *out = QJsonValue(d);
            return true;
        }
        case dom::element_type::STRING: *out = QJsonValue(string(std::string_view(e))); return true;
        case dom::element_type::ARRAY: {
            QJsonArray array;
            for (dom::element item : dom::array(e)) {
                QJsonValue v;
                if (!value(item, &v))
                    return false;
                array.append(v);
            }
            *out = array;
            return true;
        }
        case dom::element_type::OBJECT: {
            QJsonObject object;
            for (dom::key_value_pair field : dom::object(e)) {
                const QString key = string(field.key);
                QJsonValue v;
                if (object.contains(key) || !value(field.value, &v))
                    return false;
                object.insert(key, v);
            }
            *out = object;
            return true;
        }
        }
        return false;
    }

    static bool optionalNumber(dom::element e, std::optional<double> *out)
    {
        if (e.is_null())
            return true;
        double d = 0;
        if (!number(e, &d))
            return false;
        *out = d;
        return true;
    }

    static bool optionalInteger(dom::element e, std::optional<qint64> *out)
    {
        if (e.is_null())
            return true;
        qint64 n = 0;
        if (!integer(e, -MaxExactInteger, MaxExactInteger, &n))
            return false;
        *out = n;
        return true;
    }

    static bool optionalString(dom::element e, std::optional<QString> *out, Interner *interner = nullptr)
    {
        if (e.is_null())
            return true;
        if (!e.is_string())
            return false;
        *out = interner ? (*interner)(std::string_view(e)) : string(std::string_view(e));
        return true;
    }

    /// The fields replay.md §1 names for a cell, one bit each, to catch repeats.
    static constexpr unsigned Id = 1u << 0, Branch = 1u << 1, Attempt = 1u << 2, Seq = 1u << 3,
                              Score = 1u << 4, Evaluated = 1u << 5, Valid = 1u << 6, FailClassField = 1u << 7,
                              Error = 1u << 8, NValid = 1u << 9, NTotal = 1u << 10, Tags = 1u << 11;

    static unsigned cellField(std::string_view key)
    {
        switch (key.size()) {
        case 2: return key == "id" ? Id : 0;
        case 3: return key == "seq" ? Seq : 0;
        case 4: return key == "tags" ? Tags : 0;
        case 5: return key == "score" ? Score : key == "valid" ? Valid : key == "error" ? Error : 0;
        case 6: return key == "branch" ? Branch : 0;
        case 7: return key == "attempt" ? Attempt : key == "n_valid" ? NValid : key == "n_total" ? NTotal : 0;
        case 9: return key == "evaluated" ? Evaluated : 0;
        case 10: return key == "fail_class" ? FailClassField : 0;
        default: return 0;
        }
    }

    static bool cell(dom::element e, Cell *c, Interner &intern)
    {
        static const QString ok = QString::fromLatin1(FailClass::Ok);
        static const QString agent = QString::fromLatin1(FailClass::Agent);
        if (!e.is_object())
            return false;
        unsigned seen = 0;
        bool evaluatedGiven = false;
        std::optional<QString> failClass;
        qint64 n = 0;
        for (dom::key_value_pair field : dom::object(e)) {
            const unsigned which = cellField(field.key);
            if (seen & which)
                return false;
            seen |= which;
            const dom::element v = field.value;
            switch (which) {
            case Id:
                if (!v.is_string() || std::string_view(v).empty())
                    return false;
                c->id = string(std::string_view(v));
                break;
            case Branch:
                if (!integer(v, 0, 2147483647.0, &n))
                    return false;
                c->branch = int(n);
                break;
            case Attempt:
                if (!integer(v, 0, 2147483647.0, &n))
                    return false;
                c->attempt = int(n);
                break;
            case Seq:
                if (!integer(v, -MaxExactInteger, MaxExactInteger, &c->seq))
                    return false;
                break;
            case Score:
                if (!optionalNumber(v, &c->score))
                    return false;
                break;
            case Evaluated:
                if (!v.is_bool())
                    return false;
                c->evaluated = bool(v);
                evaluatedGiven = true;
                break;
            case Valid:
                if (v.is_bool())
                    c->valid = bool(v);
                else if (!v.is_null())
                    return false;
                break;
            case FailClassField:
                if (!v.is_string())
                    return false;
                failClass = intern(std::string_view(v));
                break;
            case Error:
                if (!optionalString(v, &c->error, &intern))
                    return false;
                break;
            case NValid:
                if (!optionalInteger(v, &c->nValid))
                    return false;
                break;
            case NTotal:
                if (!optionalInteger(v, &c->nTotal))
                    return false;
                break;
            case Tags:
                if (!v.is_array())
                    return false;
                c->tags.reserve(qsizetype(dom::array(v).size()));
                for (dom::element tag : dom::array(v)) {
                    if (!tag.is_string())
                        return false;
                    c->tags.append(intern(std::string_view(tag)));
                }
                break;
            default: {
                const QString key = string(field.key);
                QJsonValue payload;
                if (c->payload.contains(key) || !value(v, &payload))
                    return false;
                c->payload.insert(key, payload);
                break;
            }
            }
        }
        if ((seen & (Id | Branch | Attempt | Seq)) != (Id | Branch | Attempt | Seq))
            return false;
        if (!evaluatedGiven)
            c->evaluated = c->score.has_value();
        c->failClass = failClass ? *failClass : c->evaluated && !c->error ? ok : agent;
        return true;
    }

    static constexpr unsigned Format = 1u << 0, Task = 1u << 1, Iteration = 1u << 2, Baseline = 1u << 3,
                              MaxParallelism = 1u << 4, Grid = 1u << 5, Cells = 1u << 6;

    static unsigned topField(std::string_view key)
    {
        if (key == "format")
            return Format;
        if (key == "task")
            return Task;
        if (key == "iteration")
            return Iteration;
        if (key == "baseline_score")
            return Baseline;
        if (key == "max_parallelism")
            return MaxParallelism;
        if (key == "grid")
            return Grid;
        if (key == "cells")
            return Cells;
        return 0;
    }

    static bool grid(dom::element e, std::optional<GridShape> *out)
    {
        if (e.is_null())
            return true;
        if (!e.is_object())
            return false;
        std::optional<qint64> branches, refinements;
        for (dom::key_value_pair field : dom::object(e)) {
            std::optional<qint64> *slot = field.key == "branches"      ? &branches
                                          : field.key == "refinements" ? &refinements
                                                                       : nullptr;
            if (!slot)
                continue; // other keys of the grid are not read (as in the reference)
            qint64 n = 0;
            if (slot->has_value() || !integer(field.value, 0, 1000000, &n))
                return false;
            *slot = n;
        }
        if (!branches || !refinements)
            return false;
        *out = GridShape{int(*branches), int(*refinements)};
        return true;
    }

    static std::optional<ParseResult> tree(dom::element root)
    {
        if (!root.is_object())
            return std::nullopt;
        TreeMeta meta;
        unsigned seen = 0;
        std::optional<dom::array> cellsArray;
        for (dom::key_value_pair field : dom::object(root)) {
            const unsigned which = topField(field.key);
            if (seen & which)
                return std::nullopt;
            seen |= which;
            const dom::element v = field.value;
            bool ok = true;
            switch (which) {
            case Format: ok = v.is_string() && std::string_view(v) == std::string_view(FormatTag); break;
            case Task: ok = optionalString(v, &meta.task); break;
            case Iteration: ok = optionalInteger(v, &meta.iteration); break;
            case Baseline: ok = optionalNumber(v, &meta.baselineScore); break;
            case MaxParallelism: {
                qint64 w = 0;
                ok = v.is_null() || integer(v, 1, 1000000, &w);
                if (ok && !v.is_null())
                    meta.maxParallelism = int(w);
                break;
            }
            case Grid: ok = grid(v, &meta.grid); break;
            case Cells:
                ok = v.is_array();
                if (ok)
                    cellsArray = dom::array(v);
                break;
            default: {
                const QString key = string(field.key);
                QJsonValue payload;
                ok = !meta.payload.contains(key) && value(v, &payload);
                if (ok)
                    meta.payload.insert(key, payload);
                break;
            }
            }
            if (!ok)
                return std::nullopt;
        }
        if (!(seen & Format) || !cellsArray)
            return std::nullopt;
        QList<Cell> cells;
        cells.reserve(qsizetype(cellsArray->size()));
        Interner intern;
        for (dom::element e : *cellsArray) {
            Cell c;
            if (!cell(e, &c, intern))
                return std::nullopt;
            cells.append(std::move(c));
        }
        ParseResult result;
        result.tree = DiscoveryTree::build(std::move(meta), std::move(cells), &result.error);
        return result;
    }
};

} // namespace

namespace {

std::optional<ParseResult> parseWith(const char *data, qsizetype size, bool padded)
{
    if (size > MaxFastBytes || std::string_view(data, size_t(size)).starts_with("\xEF\xBB\xBF"))
        return std::nullopt;
    // One parser a thread: its buffers are reused from file to file.
    thread_local dom::parser parser;
    thread_local bool allocated = false;
    if (!allocated) {
        if (parser.allocate(64 * 1024, MaxDepth) != simdjson::SUCCESS)
            return std::nullopt;
        allocated = true;
    }
    dom::element root;
    // Unpadded input is copied into a padded buffer by the parser.
    if (parser.parse(data, size_t(size), !padded).get(root) != simdjson::SUCCESS)
        return std::nullopt;
    return Walker::tree(root);
}

} // namespace

std::optional<ParseResult> parseFast(const QByteArray &json)
{
    return parseWith(json.constData(), json.size(), false);
}

std::optional<ParseResult> parseFastPadded(const char *data, qsizetype size)
{
    return parseWith(data, size, true);
}

qsizetype paddingBytes()
{
    return qsizetype(simdjson::SIMDJSON_PADDING);
}

} // namespace dreamrsi::TreeJson::detail
