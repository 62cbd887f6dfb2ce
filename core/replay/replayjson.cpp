#include "replayjson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QLocale>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <numeric>
#include <string>
#include <vector>

namespace dreamrsi {

namespace {

QLatin1String key(const char *k)
{
    return QLatin1String(k);
}

QJsonValue optionalNumber(const std::optional<double> &v)
{
    return v ? QJsonValue(*v) : QJsonValue(QJsonValue::Null);
}

QJsonValue optionalString(const QString &s)
{
    return s.isEmpty() ? QJsonValue(QJsonValue::Null) : QJsonValue(s);
}

QJsonArray stringArray(const QStringList &list)
{
    QJsonArray a;
    for (const QString &s : list)
        a.append(s);
    return a;
}

QStringList toStringList(const QJsonValue &v)
{
    QStringList list;
    const QJsonArray a = v.toArray();
    list.reserve(a.size());
    for (const QJsonValue &x : a)
        list.append(x.toString());
    return list;
}

std::optional<double> toOptionalNumber(const QJsonValue &v)
{
    if (v.isDouble())
        return v.toDouble();
    return std::nullopt;
}

QJsonValue planToJson(const std::optional<GridPlan> &plan)
{
    if (!plan)
        return QJsonValue::Null;
    return QJsonObject{{key("branches"), plan->branches},
                       {key("refinements"), plan->refinements},
                       {key("reason"), plan->reason}};
}

std::optional<GridPlan> planFromJson(const QJsonValue &v)
{
    if (!v.isObject())
        return std::nullopt;
    const QJsonObject o = v.toObject();
    return GridPlan{o.value(key("branches")).toInt(), o.value(key("refinements")).toInt(),
                    o.value(key("reason")).toString()};
}

QJsonObject sweepEntryToJson(const EpisodeResult &e, bool scorable)
{
    QJsonObject o{{key("beta"), e.beta},
                  {key("calls"), e.calls},
                  {key("rounds"), e.rounds},
                  {key("best"), e.best},
                  {key("attainment"), scorable ? QJsonValue(e.attainment) : QJsonValue(QJsonValue::Null)},
                  {key("revealed"), stringArray(e.revealed)}};
    if (e.plan)
        o.insert(key("plan"), planToJson(e.plan));
    if (!e.ok())
        o.insert(key("error"), e.error);
    return o;
}

/// Writes JSON the way QJsonDocument::toJson(Indented) does in Qt 6: object
/// keys in the order given (callers pass them sorted, as QJsonObject keeps
/// them), "key": value, four spaces per level, "[\n<indent>]" when empty.
class IndentedWriter
{
public:
    explicit IndentedWriter(std::string &out) : m_out(out) {}
    /// A writer of one value nested `depth` containers deep, its first line
    /// without the indent (the enclosing writer's entry() writes that).
    IndentedWriter(std::string &out, int depth) : m_out(out), m_first(depth, false), m_pendingValue(true) {}

    /// The place of a value a nested writer writes, left empty: where it
    /// goes is added to `at`.
    void place(std::vector<size_t> &at)
    {
        item();
        at.push_back(m_out.size());
    }

    void beginObject() { open('{'); }
    void endObject() { close('}'); }
    void beginArray() { open('['); }
    void endArray() { close(']'); }

    /// Starts the next member of the current object.
    template<size_t N>
    IndentedWriter &key(const char (&k)[N])
    {
        item();
        m_out += '"';
        m_out.append(k, N - 1);
        m_out.append("\": ", 3);
        m_pendingValue = true;
        return *this;
    }

    void number(double d)
    {
        item();
        // QJsonValue(double) keeps an integral value within ±2^53 as an
        // integer (so -0.0 prints as 0); other finite values print in the
        // shortest form that reads back, non-finite ones as null.
        if (std::isfinite(d) && d == std::floor(d) && std::fabs(d) <= 9007199254740992.0) {
            integerText(qint64(d));
        } else if (std::isfinite(d) && std::fabs(d) >= 1e-3 && std::fabs(d) < 4503599627370496.0) {
            // A fraction of 1e-3 or more (below 2^52 every double with a
            // fraction is): Qt's shortest 'g' form is the shortest fixed
            // form, which to_chars writes without Qt's allocations
            // (indentedJsonMatchesQJsonDocument compares the two).
            char digits[48];
            const auto end = std::to_chars(digits, digits + sizeof digits, d, std::chars_format::fixed).ptr;
            m_out.append(digits, size_t(end - digits));
        } else if (std::isfinite(d)) {
            append(QByteArray::number(d, 'g', QLocale::FloatingPointShortest));
        } else {
            m_out += "null";
        }
    }
    void integer(qint64 v)
    {
        item();
        integerText(v);
    }
    void optionalNumber(const std::optional<double> &v) { v ? number(*v) : null(); }
    void null()
    {
        item();
        m_out += "null";
    }
    void boolean(bool b)
    {
        item();
        m_out += b ? "true" : "false";
    }
    void string(QStringView s)
    {
        item();
        escaped(s);
    }
    /// The reveal orders of a sweep's episodes as indices into a world's
    /// cells, with each cell's id written once as an item (separator,
    /// indent and JSON string) and copied from there: ids repeat from
    /// episode to episode.
    class RevealedCells
    {
    public:
        RevealedCells(const CompactTree &world, const std::vector<std::vector<int>> &episodes)
            : m_world(world), m_episodes(episodes)
        {
        }
        const std::vector<int> &episode(qsizetype i) const { return m_episodes[size_t(i)]; }

    private:
        friend class IndentedWriter;
        const CompactTree &m_world;
        const std::vector<std::vector<int>> &m_episodes;
        std::string m_items;          ///< ",\n<indent>\"id\"" of every cell, back to back
        std::vector<size_t> m_ends;   ///< where each cell's item ends in m_items
        qsizetype m_depth = -1;       ///< the nesting the items were made for
    };

    /// string() of the id of each cell of `cells`, into the array just begun.
    void cellIds(const std::vector<int> &cells, RevealedCells &table)
    {
        if (cells.empty())
            return;
        if (table.m_depth != m_first.size()) {
            table.m_depth = m_first.size();
            table.m_items.clear();
            table.m_ends.clear();
            std::string separator = ",\n";
            separator.append(size_t(4 * m_first.size()), ' ');
            IndentedWriter literal(table.m_items);
            for (int c = 0; c < table.m_world.cellCount(); ++c) {
                table.m_items += separator;
                literal.escaped(table.m_world.id(c));
                table.m_ends.push_back(table.m_items.size());
            }
        }
        // No comma before the first item of an array empty so far.
        bool first = m_first.constLast();
        m_first.last() = false;
        for (const int c : cells) {
            const size_t from = c == 0 ? 0 : table.m_ends[size_t(c) - 1];
            const std::string_view item = std::string_view(table.m_items).substr(from, table.m_ends[size_t(c)] - from);
            m_out.append(first ? item.substr(1) : item);
            first = false;
        }
    }

private:
    void item()
    {
        if (m_pendingValue) { // the value of a key just written
            m_pendingValue = false;
            return;
        }
        if (!m_first.isEmpty()) {
            m_out += m_first.last() ? "\n" : ",\n";
            m_first.last() = false;
        }
        indent();
    }
    void indent()
    {
        static const char spaces[] = "                                                                ";
        for (qsizetype n = 4 * m_first.size(); n > 0; n -= qsizetype(sizeof spaces) - 1)
            m_out.append(spaces, size_t(std::min(n, qsizetype(sizeof spaces) - 1)));
    }
    void open(char c)
    {
        item();
        m_out += c;
        m_first.append(true);
    }
    void close(char c)
    {
        m_first.removeLast();
        m_out += '\n';
        indent();
        m_out += c;
    }
    void escaped(QStringView s)
    {
        static const char hex[] = "0123456789abcdef";
        const auto escapeByte = [this](unsigned char u) {
            switch (u) {
            case '"': m_out += "\\\""; return;
            case '\\': m_out += "\\\\"; return;
            case '\b': m_out += "\\b"; return;
            case '\f': m_out += "\\f"; return;
            case '\n': m_out += "\\n"; return;
            case '\r': m_out += "\\r"; return;
            case '\t': m_out += "\\t"; return;
            default:
                if (u < 0x20) {
                    m_out += "\\u00";
                    m_out += hex[u >> 4];
                    m_out += hex[u & 0xf];
                } else {
                    m_out += char(u);
                }
            }
        };
        // Most strings (ids, file names) are printable ASCII with nothing to
        // escape: those are copied whole.
        const size_t start = m_out.size();
        m_out.resize(start + size_t(s.size()) + 2);
        char *to = m_out.data() + start;
        *to++ = '"';
        bool plain = true;
        for (const QChar ch : s) {
            const char16_t u = ch.unicode();
            if (u < 0x20 || u >= 0x80 || u == '"' || u == '\\') {
                plain = false;
                break;
            }
            *to++ = char(u);
        }
        if (plain) {
            *to = '"';
            return;
        }
        m_out.resize(start);
        m_out += '"';
        for (const QChar ch : s) {
            if (ch.unicode() >= 0x80) { // not ASCII: write the whole string from its UTF-8
                m_out.resize(start);
                if (std::any_of(s.cbegin(), s.cend(), [](QChar c) { return c.isSurrogate(); })) {
                    // Surrogates (an unpaired one above all) are Qt's business: print as it does.
                    const QByteArray q = QJsonDocument(QJsonArray{s.toString()}).toJson(QJsonDocument::Compact);
                    append(q.mid(1, q.size() - 2));
                    return;
                }
                m_out += '"';
                for (const char c : s.toUtf8())
                    escapeByte(static_cast<unsigned char>(c));
                m_out += '"';
                return;
            }
            escapeByte(static_cast<unsigned char>(ch.unicode()));
        }
        m_out += '"';
    }

    void append(const QByteArray &bytes) { m_out.append(bytes.constData(), size_t(bytes.size())); }
    void integerText(qint64 v)
    {
        char digits[24];
        const auto end = std::to_chars(digits, digits + sizeof digits, v).ptr;
        m_out.append(digits, size_t(end - digits));
    }

    std::string &m_out;
    QList<bool> m_first; ///< per open container: nothing written in it yet
    bool m_pendingValue = false;
};

/// `cells`, when given, is the episode's reveal order in place of e.revealed.
void writeSweepEntry(IndentedWriter &w, const EpisodeResult &e, bool scorable, const std::vector<int> *cells = nullptr,
                     IndentedWriter::RevealedCells *table = nullptr)
{
    w.beginObject();
    w.key("attainment");
    scorable ? w.number(e.attainment) : w.null();
    w.key("best").number(e.best);
    w.key("beta").number(e.beta);
    w.key("calls").integer(e.calls);
    if (!e.ok())
        w.key("error").string(e.error);
    if (e.plan) {
        w.key("plan").beginObject();
        w.key("branches").integer(e.plan->branches);
        w.key("reason").string(e.plan->reason);
        w.key("refinements").integer(e.plan->refinements);
        w.endObject();
    }
    w.key("revealed").beginArray();
    if (cells) {
        w.cellIds(*cells, *table);
    } else {
        for (const QString &id : e.revealed)
            w.string(id);
    }
    w.endArray();
    w.key("rounds").integer(e.rounds);
    w.endObject();
}

/// `revealed`, when given, holds each episode's reveal order in place of its `revealed`.
void writeSweep(IndentedWriter &w, const SweepResult &s, IndentedWriter::RevealedCells *revealed = nullptr)
{
    w.beginObject();
    if (s.approximate)
        w.key("approximate").boolean(true);
    w.key("best").number(s.best);
    w.key("cells").integer(s.cells);
    if (!s.ok())
        w.key("error").string(s.error);
    w.key("frontier").beginArray();
    for (const ParetoPoint &p : s.frontier) {
        w.beginArray();
        w.integer(p.calls);
        w.number(p.attainment);
        w.endArray();
    }
    w.endArray();
    w.key("hypervolume").optionalNumber(s.hypervolume);
    w.key("penalty").optionalNumber(s.penalty);
    w.key("scorable").boolean(s.scorable);
    w.key("sweep").beginArray();
    for (qsizetype i = 0; i < s.episodes.size(); ++i)
        writeSweepEntry(w, s.episodes.at(i), s.scorable, revealed ? &revealed->episode(i) : nullptr, revealed);
    w.endArray();
    w.key("value").optionalNumber(s.value);
    w.key("world").string(s.world);
    w.endObject();
}

} // namespace

namespace {

/// The "worlds" entries, two levels deep.
constexpr int worldDepth = 2;

/// The document; with `places`, each world's entry is left out and where it
/// goes is added to *places instead.
std::string writeResult(const ReplayResult &result, std::vector<size_t> *places)
{
    std::string out;
    out.reserve(places ? size_t(4096) : size_t(1) << 16);
    IndentedWriter w(out);
    w.beginObject();
    w.key("betas").beginArray();
    for (const double b : result.betas)
        w.number(b);
    w.endArray();
    w.key("lambda").number(result.lambda);
    w.key("max_rounds");
    result.maxRounds ? w.integer(*result.maxRounds) : w.null();
    w.key("policy").string(result.policy);
    w.key("scorable_worlds").integer(result.scorableWorlds);
    w.key("value").optionalNumber(result.value);
    w.key("workers").integer(result.workers);
    w.key("worlds").beginArray();
    if (places) {
        for (qsizetype i = 0; i < result.worlds.size(); ++i)
            w.place(*places);
    } else {
        for (const SweepResult &s : result.worlds)
            writeSweep(w, s);
    }
    w.endArray();
    w.endObject();
    out += '\n';
    return out;
}

} // namespace

QByteArray ReplayJson::resultToIndentedJson(const ReplayResult &result)
{
    const std::string text = writeResult(result, nullptr);
    return QByteArray(text.data(), qsizetype(text.size()));
}

namespace {

/// writeSweep() into a buffer the thread keeps from world to world (so it
/// grows once, not in every entry), copied out at its final size.
QByteArray sweepEntry(const SweepResult &sweep, IndentedWriter::RevealedCells *revealed)
{
    thread_local std::string out;
    out.clear();
    IndentedWriter w(out, worldDepth);
    writeSweep(w, sweep, revealed);
    QByteArray entry(out.data(), qsizetype(out.size()));
    if (out.capacity() > 4 * 1024 * 1024)
        std::string().swap(out); // not the buffer of one huge world
    return entry;
}

} // namespace

QByteArray ReplayJson::sweepToIndentedJson(const SweepResult &sweep)
{
    return sweepEntry(sweep, nullptr);
}

QByteArray ReplayJson::sweepToIndentedJson(const SweepResult &sweep, const CompactTree &world,
                                           const std::vector<std::vector<int>> &revealed)
{
    Q_ASSERT(revealed.size() == size_t(sweep.episodes.size()));
    IndentedWriter::RevealedCells cells(world, revealed);
    return sweepEntry(sweep, &cells);
}

ReplayJson::IndentedFrame ReplayJson::resultToIndentedFrame(const ReplayResult &result)
{
    IndentedFrame frame;
    frame.entryAt.reserve(size_t(result.worlds.size()));
    frame.text = writeResult(result, &frame.entryAt);
    return frame;
}

std::vector<std::string_view> ReplayJson::IndentedFrame::pieces(const QList<QByteArray> &worldEntries) const
{
    Q_ASSERT(size_t(worldEntries.size()) == entryAt.size());
    std::vector<std::string_view> out;
    out.reserve(2 * entryAt.size() + 1);
    size_t from = 0;
    for (size_t i = 0; i < entryAt.size(); ++i) {
        out.emplace_back(text.data() + from, entryAt[i] - from);
        out.emplace_back(worldEntries.at(qsizetype(i)).constData(), size_t(worldEntries.at(qsizetype(i)).size()));
        from = entryAt[i];
    }
    out.emplace_back(text.data() + from, text.size() - from);
    return out;
}

std::string ReplayJson::resultToIndentedJson(const ReplayResult &result, const QList<QByteArray> &worldEntries)
{
    const IndentedFrame frame = resultToIndentedFrame(result);
    const std::vector<std::string_view> pieces = frame.pieces(worldEntries);
    std::string out;
    out.reserve(std::accumulate(pieces.cbegin(), pieces.cend(), size_t(0),
                                [](size_t n, std::string_view p) { return n + p.size(); }));
    for (const std::string_view p : pieces)
        out.append(p);
    return out;
}

QJsonObject ReplayJson::resultToJson(const ReplayResult &result)
{
    QJsonArray betas;
    for (const double b : result.betas)
        betas.append(b);
    QJsonArray worlds;
    for (const SweepResult &s : result.worlds) {
        QJsonArray sweep;
        for (const EpisodeResult &e : s.episodes)
            sweep.append(sweepEntryToJson(e, s.scorable));
        QJsonArray frontier;
        for (const ParetoPoint &p : s.frontier)
            frontier.append(QJsonArray{p.calls, p.attainment});
        QJsonObject w{{key("world"), s.world},
                      {key("cells"), s.cells},
                      {key("best"), s.best},
                      {key("scorable"), s.scorable},
                      {key("hypervolume"), optionalNumber(s.hypervolume)},
                      {key("penalty"), optionalNumber(s.penalty)},
                      {key("value"), optionalNumber(s.value)},
                      {key("frontier"), frontier},
                      {key("sweep"), sweep}};
        if (!s.ok())
            w.insert(key("error"), s.error);
        if (s.approximate)
            w.insert(key("approximate"), true);
        worlds.append(w);
    }
    return QJsonObject{{key("policy"), result.policy},
                       {key("lambda"), result.lambda},
                       {key("workers"), result.workers},
                       {key("max_rounds"), result.maxRounds ? QJsonValue(*result.maxRounds) : QJsonValue(QJsonValue::Null)},
                       {key("betas"), betas},
                       {key("value"), optionalNumber(result.value)},
                       {key("scorable_worlds"), result.scorableWorlds},
                       {key("worlds"), worlds}};
}

Result<ReplayResult> ReplayJson::resultFromJson(const QJsonObject &object)
{
    auto fail = [](const QString &message) { return Result<ReplayResult>::failure(message); };
    if (!object.value(key("worlds")).isArray() || !object.value(key("betas")).isArray())
        return fail(QStringLiteral("replay result: 'worlds' and 'betas' must be arrays"));
    ReplayResult r;
    r.policy = object.value(key("policy")).toString();
    r.lambda = object.value(key("lambda")).toDouble(0.1);
    r.workers = object.value(key("workers")).toInt(10);
    if (object.value(key("max_rounds")).isDouble())
        r.maxRounds = object.value(key("max_rounds")).toInt();
    for (const QJsonValue &b : object.value(key("betas")).toArray())
        r.betas.append(b.toDouble());
    r.value = toOptionalNumber(object.value(key("value")));
    r.scorableWorlds = object.value(key("scorable_worlds")).toInt();
    int index = 0;
    for (const QJsonValue &wv : object.value(key("worlds")).toArray()) {
        if (!wv.isObject())
            return fail(QStringLiteral("replay result: worlds[%1] is not an object").arg(index));
        const QJsonObject w = wv.toObject();
        SweepResult s;
        s.world = w.value(key("world")).toString();
        s.cells = w.value(key("cells")).toInt();
        s.best = w.value(key("best")).toDouble();
        s.scorable = w.value(key("scorable")).toBool();
        s.lambda = r.lambda;
        s.hypervolume = toOptionalNumber(w.value(key("hypervolume")));
        s.penalty = toOptionalNumber(w.value(key("penalty")));
        s.value = toOptionalNumber(w.value(key("value")));
        s.error = w.value(key("error")).toString();
        s.approximate = w.value(key("approximate")).toBool();
        for (const QJsonValue &p : w.value(key("frontier")).toArray())
            s.frontier.append(ParetoPoint{p.toArray().at(0).toInt(), p.toArray().at(1).toDouble()});
        if (!w.value(key("sweep")).isArray())
            return fail(QStringLiteral("replay result: worlds[%1].sweep is not an array").arg(index));
        for (const QJsonValue &ev : w.value(key("sweep")).toArray()) {
            const QJsonObject o = ev.toObject();
            EpisodeResult e;
            e.beta = o.value(key("beta")).toDouble();
            e.calls = o.value(key("calls")).toInt();
            e.rounds = o.value(key("rounds")).toInt();
            e.best = o.value(key("best")).toDouble();
            e.scorable = s.scorable;
            e.attainment = o.value(key("attainment")).toDouble(0.0);
            e.revealed = toStringList(o.value(key("revealed")));
            e.plan = planFromJson(o.value(key("plan")));
            e.error = o.value(key("error")).toString();
            s.episodes.append(e);
        }
        r.worlds.append(s);
        ++index;
    }
    return Result<ReplayResult>::success(std::move(r));
}

QJsonObject ReplayJson::episodeTraceToJson(const QString &world, const EpisodeResult &episode)
{
    QJsonArray curve;
    for (const CurvePoint &p : episode.curve)
        curve.append(QJsonArray{p.calls, p.attainment});
    QJsonArray rounds;
    for (const RoundTrace &t : episode.trace) {
        QJsonArray opened;
        for (const int b : t.prefix.openedBranches)
            opened.append(b);
        QJsonArray revealed;
        for (const RevealedCell &c : t.revealed) {
            revealed.append(QJsonObject{{key("id"), c.id},
                                        {key("branch"), c.branch},
                                        {key("attempt"), c.attempt},
                                        {key("score"), optionalNumber(c.score)},
                                        {key("effective"), c.effective},
                                        {key("fail_class"), c.failClass}});
        }
        rounds.append(QJsonObject{{key("round"), t.round},
                                  {key("prefix"), QJsonObject{{key("calls"), t.prefix.calls},
                                                              {key("best"), t.prefix.best},
                                                              {key("best_id"), optionalString(t.prefix.bestId)},
                                                              {key("attainment"), t.prefix.attainment},
                                                              {key("opened"), opened},
                                                              {key("legal"), stringArray(t.prefix.legal)}}},
                                  {key("batch"), stringArray(t.batch)},
                                  {key("revealed"), revealed},
                                  {key("error"), optionalString(t.error)}});
    }
    return QJsonObject{{key("world"), world},
                       {key("beta"), episode.beta},
                       {key("calls"), episode.calls},
                       {key("rounds"), episode.rounds},
                       {key("best"), episode.best},
                       {key("attainment"), episode.scorable ? QJsonValue(episode.attainment) : QJsonValue(QJsonValue::Null)},
                       {key("error"), optionalString(episode.error)},
                       {key("plan"), planToJson(episode.plan)},
                       {key("revealed"), stringArray(episode.revealed)},
                       {key("curve"), curve},
                       {key("rounds_trace"), rounds}};
}

Result<ReplayJson::EpisodeTrace> ReplayJson::episodeTraceFromJson(const QJsonObject &object)
{
    if (!object.value(key("rounds_trace")).isArray() || !object.value(key("beta")).isDouble())
        return Result<EpisodeTrace>::failure(QStringLiteral("trace line: missing 'beta' or 'rounds_trace'"));
    EpisodeTrace line;
    line.world = object.value(key("world")).toString();
    EpisodeResult &e = line.episode;
    e.beta = object.value(key("beta")).toDouble();
    e.calls = object.value(key("calls")).toInt();
    e.rounds = object.value(key("rounds")).toInt();
    e.best = object.value(key("best")).toDouble();
    e.scorable = object.value(key("attainment")).isDouble();
    e.attainment = object.value(key("attainment")).toDouble(0.0);
    e.error = object.value(key("error")).toString();
    e.plan = planFromJson(object.value(key("plan")));
    e.revealed = toStringList(object.value(key("revealed")));
    for (const QJsonValue &p : object.value(key("curve")).toArray())
        e.curve.append(CurvePoint{p.toArray().at(0).toInt(), p.toArray().at(1).toDouble()});
    for (const QJsonValue &rv : object.value(key("rounds_trace")).toArray()) {
        const QJsonObject o = rv.toObject();
        RoundTrace t;
        t.round = o.value(key("round")).toInt();
        const QJsonObject prefix = o.value(key("prefix")).toObject();
        t.prefix.calls = prefix.value(key("calls")).toInt();
        t.prefix.best = prefix.value(key("best")).toDouble();
        t.prefix.bestId = prefix.value(key("best_id")).toString();
        t.prefix.attainment = prefix.value(key("attainment")).toDouble();
        for (const QJsonValue &b : prefix.value(key("opened")).toArray())
            t.prefix.openedBranches.append(b.toInt());
        t.prefix.legal = toStringList(prefix.value(key("legal")));
        t.batch = toStringList(o.value(key("batch")));
        for (const QJsonValue &cv : o.value(key("revealed")).toArray()) {
            const QJsonObject c = cv.toObject();
            t.revealed.append(RevealedCell{c.value(key("id")).toString(), c.value(key("branch")).toInt(),
                                           c.value(key("attempt")).toInt(), toOptionalNumber(c.value(key("score"))),
                                           c.value(key("effective")).toDouble(), c.value(key("fail_class")).toString()});
        }
        t.error = o.value(key("error")).toString();
        e.trace.append(t);
    }
    return Result<EpisodeTrace>::success(std::move(line));
}

QByteArray ReplayJson::traceLines(const ReplayResult &result)
{
    QByteArray out;
    for (const SweepResult &s : result.worlds) {
        for (const EpisodeResult &e : s.episodes) {
            out += QJsonDocument(episodeTraceToJson(s.world, e)).toJson(QJsonDocument::Compact);
            out += '\n';
        }
    }
    return out;
}

} // namespace dreamrsi
