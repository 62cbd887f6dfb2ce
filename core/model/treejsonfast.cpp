#include "treejsonfast.h"

#include <QJsonArray>
#include <QVarLengthArray>

#include <simdjson.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <string_view>
#include <vector>

namespace dreamrsi::TreeJson::detail {

namespace {

namespace dom = simdjson::dom;

constexpr double LargestExactInteger = 9007199254740992.0; // 2^53
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

/// Whether a number text of the document QJsonDocument rejects as an
/// underflow: a number with a digit other than 0 before its exponent that
/// still comes out zero ("1e-400", "2e-324"). simdjson reads those as 0, like
/// a true zero ("0.0", "-0.0", "0e-999"), which both readings take: telling
/// the two apart takes the text, which the DOM does not keep. The check is
/// made once per document, the first time a zero written as a fraction or
/// with an exponent is read (files from Python write every zero score so).
class ZeroCheck
{
public:
    /// A new document at `data` (`size` bytes) was parsed by `parser`.
    void reset(const char *data, size_t size, const dom::parser *parser)
    {
        m_data = data;
        m_size = size;
        m_parser = parser;
        m_state = State::Unknown;
    }

    /// True when no number text of the document is an underflow.
    bool zerosAreZeros()
    {
        if (m_state == State::Unknown)
            m_state = mayUnderflow(m_data, m_size) && anyUnderflow() ? State::Underflow : State::Clean;
        return m_state == State::Clean;
    }

private:
    enum class State { Unknown, Clean, Underflow };

    /// False when no number text of the `size` bytes at `data` can be an
    /// underflow, found from the bytes alone (strings included, so true
    /// says "look closer", not "yes"); a few microseconds a file, where the
    /// token by token look of anyUnderflow() took a tenth of a built-in
    /// replay's CPU over files that write their zeros "0.0".
    ///
    /// A nonzero number that comes out zero is below 4.9e-324: its decimal
    /// exponent (the exponent written, minus the zeros after the point
    /// before its first other digit) is below -323. Either the exponent is
    /// written with a minus and three digits or more ("e-324", "E-0400"), or
    /// it is above -100 and more than 223 zeros follow the point: 127 zeros
    /// in a row hold a whole 64-byte block (counted from the start) of '0'.
    static bool mayUnderflow(const char *data, size_t size)
    {
        const char *const end = data + size;
        for (const char *p = data; (p = static_cast<const char *>(std::memchr(p, '-', size_t(end - p)))); ++p) {
            const auto digit = [end](const char *q) { return q < end && *q >= '0' && *q <= '9'; };
            if (p > data && (p[-1] == 'e' || p[-1] == 'E') && digit(p + 1) && digit(p + 2) && digit(p + 3))
                return true;
        }
        constexpr uint64_t zeros = 0x3030303030303030ull;
        constexpr size_t Block = 64;
        for (size_t at = 0; at + Block <= size; at += Block) {
            uint64_t other = 0; // the bits in which the block differs from all '0'
            std::memcpy(&other, data + at, 8);
            if (other != zeros)
                continue; // its first word says no, as it does for nearly every block
            other = 0;
            for (size_t k = 0; k < Block; k += 8) {
                uint64_t word = 0;
                std::memcpy(&word, data + at + k, 8);
                other |= word ^ zeros;
            }
            if (other == 0)
                return true;
        }
        return false;
    }

    /// Every number text of the document starts at one of the parser's
    /// structural indexes (the starts of its values, which the parser found
    /// outside strings). That array is the parser's own and marked private
    /// in simdjson 3.0 ("for benchmarking access"); it is the one place the
    /// document's tokens can be had without scanning its bytes again.
    bool anyUnderflow() const
    {
        const auto *impl = m_parser ? m_parser->implementation.get() : nullptr;
        if (!impl || !impl->structural_indexes)
            return true; // cannot tell: the reference decides
        const uint32_t *index = impl->structural_indexes.get();
        const uint32_t n = impl->n_structural_indexes;
        for (uint32_t i = 0; i < n; ++i) {
            const size_t at = index[i];
            if (at >= m_size)
                continue;
            const char c = m_data[at];
            if (c != '-' && (c < '0' || c > '9'))
                continue;
            // The token and the blanks after it, up to the next structural character.
            const size_t next = i + 1 < n ? std::min<size_t>(index[i + 1], m_size) : m_size;
            const size_t length = next > at ? next - at : 0;
            // Shorter than "2e-324", or short and without an exponent: no underflow.
            if (length < 6)
                continue;
            if (length < 32 && !hasExponent(m_data + at, length, m_size - at))
                continue;
            if (underflows(m_data + at, m_data + next))
                return true;
        }
        return false;
    }

    /// Whether the `length` (< 32) bytes at `p` hold an 'e' or 'E'; `readable`
    /// bytes may be read there. Eight bytes at a time: number tokens are
    /// checked by the thousand per file.
    static bool hasExponent(const char *p, size_t length, size_t readable)
    {
        if (readable < 32 || std::endian::native != std::endian::little) {
            return std::any_of(p, p + length, [](char c) { return c == 'e' || c == 'E'; });
        }
        for (size_t k = 0; k < length; k += 8) {
            uint64_t x = 0;
            std::memcpy(&x, p + k, 8);
            // Bytes that are 'e' or 'E' become zero; then the usual test for a zero byte.
            x = (x | 0x2020202020202020ull) ^ 0x6565656565656565ull;
            uint64_t zero = (x - 0x0101010101010101ull) & ~x & 0x8080808080808080ull;
            if (length - k < 8)
                zero &= (uint64_t(1) << (8 * (length - k))) - 1; // the token's bytes only (little-endian)
            if (zero)
                return true;
        }
        return false;
    }

    /// Whether the number text at `p` is one QJsonDocument rejects as an underflow.
    static bool underflows(const char *p, const char *end)
    {
        const char *const start = p;
        if (p < end && *p == '-')
            ++p;
        // The magnitude's decimal exponent, roughly: digits before the point,
        // or the zeros after it before the first other digit.
        long magnitude = 0;
        bool nonZero = false;
        for (; p < end && *p >= '0' && *p <= '9'; ++p) {
            if (nonZero)
                ++magnitude;
            else if (*p != '0')
                nonZero = true;
        }
        if (p < end && *p == '.') {
            for (++p; p < end && *p >= '0' && *p <= '9'; ++p) {
                if (!nonZero) {
                    --magnitude;
                    nonZero = *p != '0';
                }
            }
        }
        if (!nonZero)
            return false; // a true zero
        long exponent = 0;
        if (p < end && (*p == 'e' || *p == 'E')) {
            ++p;
            const bool negative = p < end && *p == '-';
            if (p < end && (*p == '-' || *p == '+'))
                ++p;
            for (; p < end && *p >= '0' && *p <= '9'; ++p)
                exponent = std::min(exponent * 10 + (*p - '0'), 100000L);
            if (negative)
                exponent = -exponent;
        }
        // The smallest double is about 4.9e-324: anything well above it is no underflow.
        if (magnitude + exponent > -300)
            return false;
        // Near the edge: read the text as QJsonDocument does.
        bool ok = false;
        QByteArray::fromRawData(start, qsizetype(p - start)).toDouble(&ok);
        return !ok;
    }

    const char *m_data = nullptr;
    size_t m_size = 0;
    const dom::parser *m_parser = nullptr;
    State m_state = State::Unknown;
};

/// The document being read on this thread (its parser is the thread's too).
thread_local ZeroCheck zeroCheck;

/// Every helper returns false (or nothing) when the reference reading must decide.
struct Walker
{
    /// The number as QJsonValue::toDouble() gives it after QJsonDocument
    /// read it. QJsonDocument keeps a number as an integer when it is one
    /// exactly and as the nearest double otherwise (never -0: "-0.0" reads
    /// as 0), and rejects a number that does not fit a double (simdjson
    /// rejects too large ones itself, and reads too small ones as 0).
    static bool number(dom::element e, double *out)
    {
        switch (e.type()) {
        case dom::element_type::INT64: *out = double(int64_t(e)); return true;
        case dom::element_type::UINT64: *out = double(uint64_t(e)); return true;
        case dom::element_type::DOUBLE: {
            const double d = double(e);
            if (d == 0.0) {
                *out = 0.0; // +0 for -0 too
                return zeroCheck.zerosAreZeros();
            }
            *out = d;
            return std::isfinite(d);
        }
        default: return false;
        }
    }

    static bool integer(dom::element e, double min, double max, qint64 *out)
    {
        if (e.type() == dom::element_type::INT64) {
            // The common case, without number()'s floor (a libm call here):
            // the same double, the same checks, the same result.
            const double d = double(int64_t(e));
            if (d < min || d > max)
                return false;
            *out = qint64(d);
            return true;
        }
        double d = 0;
        if (!number(e, &d) || d != std::floor(d) || d < min || d > max)
            return false;
        *out = qint64(d);
        return true;
    }

    static QString string(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())); }

    /// Appends UTF-8 text to `to` (ASCII, the common case, without a temporary).
    static void appendUtf8(QString &to, std::string_view s)
    {
        if (std::all_of(s.cbegin(), s.cend(), [](char c) { return static_cast<unsigned char>(c) < 0x80; }))
            to.append(QLatin1StringView(s.data(), qsizetype(s.size())));
        else
            to.append(string(s));
    }

    /// A payload value exactly as QJsonDocument represents it; false for
    /// repeated keys and for anything the reference must decide. With `out`
    /// null, only checks (the compact reading keeps no payload).
    static bool value(dom::element e, QJsonValue *out)
    {
        switch (e.type()) {
        case dom::element_type::NULL_VALUE:
            if (out)
                *out = QJsonValue(QJsonValue::Null);
            return true;
        case dom::element_type::BOOL:
            if (out)
                *out = QJsonValue(bool(e));
            return true;
        case dom::element_type::INT64:
            if (out)
                *out = QJsonValue(qint64(int64_t(e)));
            return true;
        case dom::element_type::UINT64:
            if (out)
                *out = QJsonValue(double(uint64_t(e)));
            return true;
        case dom::element_type::DOUBLE: {
            double d = 0;
            if (!number(e, &d))
                return false;
            // QJsonDocument keeps a double that is an integer in the 64-bit
            // range as that integer ("1.0", "1e17", "-0.0" read as 1, 10^17
            // and 0; "1e20" stays a double). QJsonValue(double) does so only
            // up to 2^53.
            if (out) {
                if (d == std::floor(d) && d >= -9223372036854775808.0 && d < 9223372036854775808.0)
                    *out = QJsonValue(qint64(d));
                else
                    *out = QJsonValue(d);
            }
            return true;
        }
        case dom::element_type::STRING:
            if (out)
                *out = QJsonValue(string(std::string_view(e)));
            return true;
        case dom::element_type::ARRAY: {
            QJsonArray array;
            for (dom::element item : dom::array(e)) {
                QJsonValue v;
                if (!value(item, out ? &v : nullptr))
                    return false;
                if (out)
                    array.append(v);
            }
            if (out)
                *out = array;
            return true;
        }
        case dom::element_type::OBJECT: {
            if (!out) {
                QVarLengthArray<std::string_view, 16> keys;
                for (dom::key_value_pair field : dom::object(e)) {
                    if (!value(field.value, nullptr))
                        return false;
                    keys.push_back(field.key);
                }
                if (keys.size() <= 8) {
                    // A few keys (a cell's metrics): each against the ones before it.
                    // (Length and first byte before the bytes: most pairs differ there.)
                    const auto same = [](std::string_view a, std::string_view b) {
                        return a.size() == b.size() && (a.empty() || (a.front() == b.front() && a == b));
                    };
                    for (qsizetype i = 1; i < keys.size(); ++i) {
                        for (qsizetype j = 0; j < i; ++j) {
                            if (same(keys.at(i), keys.at(j)))
                                return false;
                        }
                    }
                    return true;
                }
                std::sort(keys.begin(), keys.end());
                return std::adjacent_find(keys.cbegin(), keys.cend()) == keys.cend();
            }
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
        if (!integer(e, -LargestExactInteger, LargestExactInteger, &n))
            return false;
        *out = n;
        return true;
    }

    static bool optionalString(dom::element e, std::optional<QString> *out)
    {
        if (e.is_null())
            return true;
        if (!e.is_string())
            return false;
        *out = string(std::string_view(e));
        return true;
    }

    /// The fields docs/tree-format.md names for a cell, one bit each, to catch repeats.
    static constexpr unsigned Id = 1u << 0, Branch = 1u << 1, Attempt = 1u << 2, Seq = 1u << 3,
                              Score = 1u << 4, Evaluated = 1u << 5, Valid = 1u << 6, FailClassField = 1u << 7,
                              Error = 1u << 8, NValid = 1u << 9, NTotal = 1u << 10, Tags = 1u << 11;

    /// `key` == `name`, a literal of the same length (a fixed-size compare the
    /// compiler inlines; string_view's == calls memcmp, per field of every cell).
    template<size_t N>
    static bool is(std::string_view key, const char (&name)[N])
    {
        return std::memcmp(key.data(), name, N - 1) == 0;
    }

    static unsigned cellField(std::string_view key)
    {
        switch (key.size()) {
        case 2: return is(key, "id") ? Id : 0;
        case 3: return is(key, "seq") ? Seq : 0;
        case 4: return is(key, "tags") ? Tags : 0;
        case 5: return is(key, "score") ? Score : is(key, "valid") ? Valid : is(key, "error") ? Error : 0;
        case 6: return is(key, "branch") ? Branch : 0;
        case 7: return is(key, "attempt") ? Attempt : is(key, "n_valid") ? NValid : is(key, "n_total") ? NTotal : 0;
        case 9: return is(key, "evaluated") ? Evaluated : 0;
        case 10: return is(key, "fail_class") ? FailClassField : 0;
        default: return 0;
        }
    }

    /// A cell as read, every check of docs/tree-format.md on its own fields done
    /// except the payload's values (which each reading checks as it takes
    /// them); strings are views into the parser's document.
    struct RawCell
    {
        std::string_view id;
        int branch = 0;
        int attempt = 0;
        qint64 seq = 0;
        std::optional<double> score;
        std::optional<bool> evaluated;
        std::optional<bool> valid;
        std::optional<std::string_view> failClass;
        std::optional<std::string_view> error;
        std::optional<qint64> nValid;
        std::optional<qint64> nTotal;
        std::optional<dom::array> tags; ///< every item a string
        QVarLengthArray<std::pair<std::string_view, dom::element>, 4> payload; ///< keys unique

        bool resolvedEvaluated() const { return evaluated ? *evaluated : score.has_value(); }
        /// The fail class with its default (docs/tree-format.md#fail-classes).
        std::string_view resolvedFailClass() const
        {
            return failClass ? *failClass : resolvedEvaluated() && !error ? FailClass::Ok : FailClass::Agent;
        }
    };

    static bool rawCell(dom::element e, RawCell *c)
    {
        if (!e.is_object())
            return false;
        unsigned seen = 0;
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
                c->id = std::string_view(v);
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
                if (!integer(v, -LargestExactInteger, LargestExactInteger, &c->seq))
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
                c->failClass = std::string_view(v);
                break;
            case Error:
                if (v.is_string())
                    c->error = std::string_view(v);
                else if (!v.is_null())
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
                for (dom::element tag : dom::array(v)) {
                    if (!tag.is_string())
                        return false;
                }
                c->tags = dom::array(v);
                break;
            default:
                for (const auto &[key, ignored] : c->payload) {
                    if (key == field.key)
                        return false;
                }
                c->payload.append({field.key, v});
                break;
            }
        }
        return (seen & (Id | Branch | Attempt | Seq)) == (Id | Branch | Attempt | Seq);
    }

    /// `keepPayload` false: the payload is checked, not kept.
    static bool cell(dom::element e, Cell *c, Interner &intern, bool keepPayload)
    {
        static const QString ok = QString::fromLatin1(FailClass::Ok);
        static const QString agent = QString::fromLatin1(FailClass::Agent);
        RawCell raw;
        if (!rawCell(e, &raw))
            return false;
        c->id = string(raw.id);
        c->branch = raw.branch;
        c->attempt = raw.attempt;
        c->seq = raw.seq;
        c->score = raw.score;
        c->evaluated = raw.resolvedEvaluated();
        c->valid = raw.valid;
        if (raw.error)
            c->error = intern(*raw.error);
        c->nValid = raw.nValid;
        c->nTotal = raw.nTotal;
        if (raw.tags) {
            c->tags.reserve(qsizetype(raw.tags->size()));
            for (dom::element tag : *raw.tags)
                c->tags.append(intern(std::string_view(tag)));
        }
        for (const auto &[key, v] : raw.payload) {
            QJsonValue payload;
            if (!value(v, keepPayload ? &payload : nullptr))
                return false;
            if (keepPayload)
                c->payload.insert(string(key), payload);
        }
        c->failClass = raw.failClass ? intern(*raw.failClass) : c->evaluated && !c->error ? ok : agent;
        return true;
    }

    static constexpr unsigned Format = 1u << 0, Task = 1u << 1, Iteration = 1u << 2, Baseline = 1u << 3,
                              MaxParallelism = 1u << 4, Grid = 1u << 5, Cells = 1u << 6,
                              Approximate = 1u << 7;

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
        if (key == "approximate")
            return Approximate;
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
            if (!slot) {
                // Other keys of the grid are not read (as in the reference),
                // but their numbers must be ones QJsonDocument takes.
                if (!value(field.value, nullptr))
                    return false;
                continue;
            }
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

    /// The top-level fields: false when the reference must decide.
    /// `meta` null: checks only (the compact reading keeps none of it);
    /// `keepPayload` false: the payload keys are checked, not kept.
    static bool top(dom::element root, TreeMeta *meta, std::optional<dom::array> *cellsArray, bool keepPayload = true)
    {
        if (!root.is_object())
            return false;
        TreeMeta scratch;
        const bool keep = meta != nullptr && keepPayload;
        if (!meta)
            meta = &scratch;
        QVarLengthArray<std::string_view, 8> payloadKeys; // when not kept
        unsigned seen = 0;
        for (dom::key_value_pair field : dom::object(root)) {
            const unsigned which = topField(field.key);
            if (seen & which)
                return false;
            seen |= which;
            const dom::element v = field.value;
            bool ok = true;
            switch (which) {
            case Format: ok = v.is_string() && std::string_view(v) == std::string_view(FormatTag); break;
            case Task: ok = optionalString(v, &meta->task); break;
            case Iteration: ok = optionalInteger(v, &meta->iteration); break;
            case Baseline: ok = optionalNumber(v, &meta->baselineScore); break;
            case MaxParallelism: {
                qint64 w = 0;
                ok = v.is_null() || integer(v, 1, 1000000, &w);
                if (ok && !v.is_null())
                    meta->maxParallelism = int(w);
                break;
            }
            case Grid: ok = grid(v, &meta->grid); break;
            case Approximate:
                ok = v.is_null() || v.is_bool();
                if (ok && v.is_bool())
                    meta->approximate = bool(v);
                break;
            case Cells:
                ok = v.is_array();
                if (ok)
                    *cellsArray = dom::array(v);
                break;
            default: {
                if (!keep) {
                    ok = std::find(payloadKeys.cbegin(), payloadKeys.cend(), field.key) == payloadKeys.cend()
                        && value(v, nullptr);
                    payloadKeys.append(field.key);
                    break;
                }
                const QString key = string(field.key);
                QJsonValue payload;
                ok = !meta->payload.contains(key) && value(v, &payload);
                if (ok)
                    meta->payload.insert(key, payload);
                break;
            }
            }
            if (!ok)
                return false;
        }
        return (seen & Format) && cellsArray->has_value();
    }

    static std::optional<ParseResult> tree(dom::element root, bool keepPayload)
    {
        TreeMeta meta;
        std::optional<dom::array> cellsArray;
        if (!top(root, &meta, &cellsArray, keepPayload))
            return std::nullopt;
        QList<Cell> cells;
        cells.reserve(qsizetype(cellsArray->size()));
        Interner intern;
        for (dom::element e : *cellsArray) {
            Cell c;
            if (!cell(e, &c, intern, keepPayload))
                return std::nullopt;
            cells.append(std::move(c));
        }
        ParseResult result;
        result.tree = DiscoveryTree::build(std::move(meta), std::move(cells), &result.error);
        return result;
    }

    /// A cell as the compact reading keeps it until the structure is checked.
    struct Read
    {
        CompactTree::CellFacts facts;
        qint64 seq;
        std::string_view id;
    };

    static bool uniqueSeqs(const std::vector<Read> &read)
    {
        // Files are written in seq order: one pass then.
        bool ascending = true;
        for (size_t i = 1; i < read.size() && ascending; ++i)
            ascending = read[i - 1].seq < read[i].seq;
        if (ascending)
            return true;
        // Seqs in a small range (files number their cells 0..n-1, in any
        // order): one mark each.
        const auto [low, high] = std::minmax_element(read.cbegin(), read.cend(),
                                                     [](const Read &a, const Read &b) { return a.seq < b.seq; });
        if (quint64(high->seq - low->seq) < 4 * read.size() + 64) {
            std::vector<char> seen(size_t(high->seq - low->seq) + 1, 0);
            for (const Read &r : read) {
                char &mark = seen[size_t(r.seq - low->seq)];
                if (mark)
                    return false;
                mark = 1;
            }
            return true;
        }
        std::vector<qint64> seqs(read.size());
        for (size_t i = 0; i < read.size(); ++i)
            seqs[i] = read[i].seq;
        std::sort(seqs.begin(), seqs.end());
        return std::adjacent_find(seqs.cbegin(), seqs.cend()) == seqs.cend();
    }

    static bool uniqueIds(const std::vector<Read> &read)
    {
        // An open-addressing set of the ids, at most half full.
        size_t capacity = 16;
        while (capacity < 2 * read.size())
            capacity *= 2;
        std::vector<const std::string_view *> table(capacity, nullptr);
        const std::hash<std::string_view> hash;
        for (const Read &r : read) {
            for (size_t at = hash(r.id) & (capacity - 1);; at = (at + 1) & (capacity - 1)) {
                if (!table[at]) {
                    table[at] = &r.id;
                    break;
                }
                if (*table[at] == r.id)
                    return false;
            }
        }
        return true;
    }

    /// The cells' places sorted by (branch, attempt), when every branch's
    /// attempts are exactly 0..L-1 once each; nothing otherwise.
    static std::optional<std::vector<int>> byBranchAndAttempt(const std::vector<Read> &read)
    {
        const size_t n = read.size();
        std::vector<int> order(n);
        if (n == 0)
            return order;
        int low = read[0].facts.branch, high = low;
        for (const Read &r : read) {
            low = std::min(low, r.facts.branch);
            high = std::max(high, r.facts.branch);
        }
        if (size_t(high) - size_t(low) < 4 * n + 64) {
            // Branch ids in a small range: count each branch's cells, then
            // place attempt a of branch b at b's start + a. With as many
            // places as cells, all of them taken once means 0..L-1 each.
            std::vector<int> start(size_t(high - low) + 2, 0);
            for (const Read &r : read)
                ++start[size_t(r.facts.branch - low) + 1];
            for (size_t b = 1; b < start.size(); ++b)
                start[b] += start[b - 1];
            std::vector<char> taken(n, 0);
            for (size_t i = 0; i < n; ++i) {
                const size_t b = size_t(read[i].facts.branch - low);
                const int attempt = read[i].facts.attempt;
                if (attempt >= start[b + 1] - start[b])
                    return std::nullopt;
                const size_t at = size_t(start[b] + attempt);
                if (taken[at])
                    return std::nullopt;
                taken[at] = 1;
                order[at] = int(i);
            }
            return order;
        }
        for (size_t i = 0; i < n; ++i)
            order[i] = int(i);
        std::sort(order.begin(), order.end(), [&read](int a, int b) {
            const CompactTree::CellFacts &x = read[size_t(a)].facts, &y = read[size_t(b)].facts;
            return x.branch != y.branch ? x.branch < y.branch : x.attempt < y.attempt;
        });
        for (size_t i = 0; i < n; ++i) {
            const CompactTree::CellFacts &f = read[size_t(order[i])].facts;
            const bool first = i == 0 || read[size_t(order[i - 1])].facts.branch != f.branch;
            if (f.attempt != (first ? 0 : read[size_t(order[i - 1])].facts.attempt + 1))
                return std::nullopt;
        }
        return order;
    }

    /// The compact form of a file whose every cell passes and whose
    /// structure holds (unique ids, seqs and (branch, attempt) pairs,
    /// attempts 0..L-1): what DiscoveryTree::build would accept. Nothing
    /// otherwise: the full reading then decides and names the problem.
    /// Fail classes by name as read (views into the document), for validate's summary.
    using FailClassTally = QVarLengthArray<std::pair<std::string_view, int>, 8>;

    /// A valid tree's counts, as its compact form would give them.
    struct Shape
    {
        int cells = 0;
        int branches = 0;
        int maxDepth = 0;
        double best = 0.0; ///< S
    };

    /// With `shape`, only its counts are made: the tree returned is empty.
    static std::optional<CompactTree> compact(dom::element root, FailClassTally *tally = nullptr,
                                              std::optional<double> *bestRaw = nullptr, Shape *shape = nullptr)
    {
        std::optional<dom::array> cellsArray;
        TreeMeta meta; // only `approximate` is kept, no payload
        if (!top(root, &meta, &cellsArray, false))
            return std::nullopt;
        const size_t n = cellsArray->size();
        std::vector<Read> read;
        read.reserve(n);
        for (dom::element e : *cellsArray) {
            RawCell raw;
            if (!rawCell(e, &raw))
                return std::nullopt;
            for (const auto &[key, v] : raw.payload) {
                if (!value(v, nullptr))
                    return std::nullopt;
            }
            CompactTree::CellFacts f;
            f.hasScore = raw.score.has_value();
            f.score = raw.score.value_or(0.0);
            f.effective = f.score > 0.0 ? f.score : 0.0; // number() gives finite values only
            f.branch = raw.branch;
            f.attempt = raw.attempt;
            const std::string_view failClass = raw.resolvedFailClass();
            f.success = raw.resolvedEvaluated() && !raw.error && failClass == std::string_view("ok");
            f.hard = failClass == std::string_view("env");
            read.push_back(Read{f, raw.seq, raw.id});
            if (tally) {
                const auto known = std::find_if(tally->begin(), tally->end(),
                                                [failClass](const auto &entry) { return entry.first == failClass; });
                if (known != tally->end())
                    ++known->second;
                else
                    tally->append({failClass, 1});
            }
            if (bestRaw && raw.score && (!*bestRaw || *raw.score > **bestRaw))
                *bestRaw = raw.score;
        }
        // Repeated seqs or ids, a repeated or missing attempt: the full
        // reading names them.
        if (!uniqueSeqs(read) || !uniqueIds(read))
            return std::nullopt;
        const std::optional<std::vector<int>> order = byBranchAndAttempt(read);
        if (!order)
            return std::nullopt;
        CompactTree t;
        t.approximate = meta.approximate;
        if (shape) {
            // Validate's summary: the counts, no tree (its ids are most of its making).
            *shape = Shape{int(n), 0, 0, 0.0};
            for (const Read &r : read) {
                shape->branches += r.facts.attempt == 0 ? 1 : 0;
                shape->maxDepth = std::max(shape->maxDepth, r.facts.attempt + 1);
                shape->best = std::max(shape->best, r.facts.effective);
            }
            return t;
        }
        t.cells.reserve(n);
        t.idEnds.reserve(n);
        qsizetype idBytes = 0;
        for (const Read &r : read)
            idBytes += qsizetype(r.id.size());
        t.ids.reserve(idBytes);
        for (size_t i = 0; i < n; ++i) {
            const Read &r = read[size_t((*order)[i])];
            const CompactTree::CellFacts &f = r.facts;
            if (f.attempt == 0)
                t.branches.push_back(CompactTree::Branch{f.branch, int(i), 0});
            t.branches.back().length += 1;
            t.cells.push_back(f);
            appendUtf8(t.ids, r.id);
            t.idEnds.push_back(t.ids.size());
            t.best = std::max(t.best, f.effective);
        }
        return t;
    }
};

} // namespace

namespace {

/// The document's root, or nothing when the reference reading must decide.
/// Valid until the thread parses again.
std::optional<dom::element> rootOf(const char *data, qsizetype size, bool padded)
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
    zeroCheck.reset(data, size_t(size), &parser);
    return root;
}

std::optional<ParseResult> parseWith(const char *data, qsizetype size, bool padded, bool keepPayload)
{
    const std::optional<dom::element> root = rootOf(data, size, padded);
    return root ? Walker::tree(*root, keepPayload) : std::nullopt;
}

} // namespace

std::optional<ParseResult> parseFast(const QByteArray &json)
{
    return parseWith(json.constData(), json.size(), false, true);
}

std::optional<ParseResult> parseFastPadded(const char *data, qsizetype size, bool keepPayload)
{
    return parseWith(data, size, true, keepPayload);
}

std::optional<CompactTree> parseCompactPadded(const char *data, qsizetype size)
{
    const std::optional<dom::element> root = rootOf(data, size, true);
    return root ? Walker::compact(*root) : std::nullopt;
}

std::optional<TreeFacts> parseFactsPadded(const char *data, qsizetype size)
{
    const std::optional<dom::element> root = rootOf(data, size, true);
    if (!root)
        return std::nullopt;
    Walker::FailClassTally tally;
    TreeFacts facts;
    Walker::Shape shape;
    if (!Walker::compact(*root, &tally, &facts.bestScore, &shape))
        return std::nullopt;
    facts.cells = shape.cells;
    facts.branches = shape.branches;
    facts.maxDepth = shape.maxDepth;
    facts.scorable = shape.best > 0.0;
    // In the order of DiscoveryTree::failClassCounts(), a QMap's: by QString.
    facts.failClasses.reserve(tally.size());
    for (const auto &[name, count] : tally)
        facts.failClasses.append({Walker::string(name), count});
    std::sort(facts.failClasses.begin(), facts.failClasses.end(),
              [](const auto &a, const auto &b) { return a.first < b.first; });
    return facts;
}

qsizetype paddingBytes()
{
    return qsizetype(simdjson::SIMDJSON_PADDING);
}

} // namespace dreamrsi::TreeJson::detail
