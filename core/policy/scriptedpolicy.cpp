#include "scriptedpolicy.h"

#include "scriptwatchdog.h"

#include <QFile>
#include <QJSEngine>
#include <QJSValue>
#include <QHash>
#include <QVarLengthArray>

#include <algorithm>
#include <unordered_map>
#include <memory>
#include <optional>

namespace dreamrsi {

// The indices ScriptedPolicy::Private holds: in a named namespace, since a
// class with external linkage may not hold members of an anonymous one's types.
namespace scripted {

/// A cheap hash of a string's UTF-16 units (FNV-1a): ids and tags are short,
/// and QHash's keyed hash of a QString cost an eighth of a scripted replay's
/// CPU in perf, looked up several times per revealed cell.
struct TextHash
{
    size_t operator()(QStringView s) const noexcept
    {
        size_t h = 14695981039346656037ull;
        for (const QChar c : s)
            h = (h ^ c.unicode()) * 1099511628211ull;
        return h ^ size_t(s.size());
    }
    size_t operator()(const QString &s) const noexcept { return (*this)(QStringView(s)); }
    size_t operator()(const QStringList &list) const noexcept
    {
        size_t h = size_t(list.size());
        for (const QString &s : list)
            h = (h ^ (*this)(s)) * 1099511628211ull;
        return h;
    }
};

/// The few calls of QHash<K, int> this file makes, on an unordered_map with TextHash.
template<typename K>
class TextIndex
{
public:
    using Map = std::unordered_map<K, int, TextHash>;
    qsizetype size() const { return qsizetype(m_map.size()); }
    bool isEmpty() const { return m_map.empty(); }
    void clear() { m_map.clear(); }
    bool contains(const K &key) const { return m_map.find(key) != m_map.end(); }
    int value(const K &key, int fallback = 0) const
    {
        const auto it = m_map.find(key);
        return it != m_map.end() ? it->second : fallback;
    }
    /// The entry of `key`, or null.
    const int *find(const K &key) const
    {
        const auto it = m_map.find(key);
        return it != m_map.end() ? &it->second : nullptr;
    }
    /// Sets `key` to `v` (as QHash::insert) and returns the value stored.
    int insert(const K &key, int v)
    {
        m_map.insert_or_assign(key, v);
        return v;
    }

private:
    Map m_map;
};

} // namespace scripted

namespace {

// The runtime that stands between the engine and the policy. It lives in a
// closure: the policy's global scope cannot reach it. It installs the
// helpers, the seeded Math.random and the clock-less Date as globals and
// re-installs them at every episode start. Its source is JavaScript of its
// own, core/policy/policyruntime.js (compiled in as :/runtime/policyruntime.js).
const QString &runtimeSource()
{
    static const QString source = [] {
        QFile f(QStringLiteral(":/runtime/policyruntime.js"));
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    }();
    return source;
}

QString typeName(const QJSValue &v)
{
    if (v.isNull())
        return QStringLiteral("null");
    if (v.isUndefined())
        return QStringLiteral("undefined");
    if (v.isBool())
        return QStringLiteral("a boolean");
    if (v.isNumber())
        return QStringLiteral("a number");
    if (v.isString())
        return QStringLiteral("a string");
    if (v.isArray())
        return QStringLiteral("an array");
    if (v.isCallable())
        return QStringLiteral("a function");
    return QStringLiteral("an object");
}

QJSValue optionalNumber(const std::optional<double> &v)
{
    return v ? QJSValue(*v) : QJSValue(QJSValue::NullValue);
}

QJSValue optionalInteger(const std::optional<qint64> &v)
{
    return v ? QJSValue(double(*v)) : QJSValue(QJSValue::NullValue);
}

} // namespace

class ScriptedPolicy::Private
{
    template<typename K>
    using TextIndex = scripted::TextIndex<K>;

public:
    QJSEngine engine;
    std::unique_ptr<ScriptWatchdog> watchdog;
    QJSValue runtime;
    QJSValue fnBegin, fnAddTags, fnAddMeta, fnPlaceLegal, fnDropLegal, fnSetLegal, fnAddFailClass, fnAddObs, fnSelect, fnPlan,
        fnFirstRound, fnReuseFirstRound;
    // Argument lists reused from call to call: building a QJSValueList per
    // call costs more than the call (Qt 6.4: ~0.1 us, plus ~0.1 us a string).
    QJSValueList metaArgs = QJSValueList(8);
    QJSValueList obsArgs = QJSValueList(10);
    TextIndex<QString> failClassIndex; ///< fail-class names the interpreter has (all episodes)
    QString label;
    int timeLimitMs = 2000;
    quint32 seed = 0;
    bool hasPlanGrid = false;
    std::optional<double> defaultBeta;
    QString pendingError; ///< from beginEpisode, reported by the next call
    qsizetype pushedObservations = 0;
    TextIndex<QString> indexOf;      ///< cells whose metadata the interpreter has, by id
    /// A legal cell as the interpreter's legal list holds it.
    struct Slot
    {
        QString id;
        int branch = 0;
    };
    QList<Slot> sentLegal;           ///< the interpreter's legal list, in its order
    TextIndex<QStringList> tagList;  ///< tag lists the interpreter has this episode
    /// The first round of the last episode that started afresh: its legal
    /// cells, what the interpreter made of them (firstRound()) and the
    /// records above as they were then. An episode whose first round has
    /// the same legal cells (the next β of the same world) takes them over
    /// instead of sending each cell again.
    struct FirstRound
    {
        QList<CellMeta> legal;
        QJSValue records;
        TextIndex<QString> indexOf;
        QList<Slot> sentLegal;
        TextIndex<QStringList> tagList;
    };
    std::optional<FirstRound> firstRound;

    /// `place`: the legal list position the cell takes over, or -1.
    void addMeta(const CellMeta &m, int place)
    {
        const int index = int(indexOf.size());
        indexOf.insert(m.id, index);
        const int *listed = tagList.find(m.tags);
        int known = listed ? *listed : -1;
        if (!listed) {
            known = tagList.insert(m.tags, int(tagList.size()));
            const bool joinable = std::none_of(m.tags.cbegin(), m.tags.cend(),
                                               [](const QString &t) { return t.contains(QChar(0)); });
            fnAddTags.call({QJSValue(known),
                            joinable ? QJSValue(m.tags.join(QChar(0))) : stringArray(m.tags),
                            QJSValue(int(m.tags.size()))});
        }
        const int parent = m.parentId.isEmpty() ? -1 : indexOf.value(m.parentId, -1);
        metaArgs[0] = QJSValue(index);
        metaArgs[1] = QJSValue(m.id);
        metaArgs[2] = QJSValue(m.branch);
        metaArgs[3] = QJSValue(m.attempt);
        metaArgs[4] = parent >= 0            ? QJSValue(parent)
                      : m.parentId.isEmpty() ? QJSValue(QJSValue::NullValue)
                                             : QJSValue(m.parentId);
        metaArgs[5] = QJSValue(double(m.seq));
        metaArgs[6] = QJSValue(known);
        metaArgs[7] = QJSValue(place);
        fnAddMeta.call(metaArgs);
    }

    void addObservation(const Observation &o)
    {
        const int *classed = failClassIndex.find(o.failClass);
        int failClass = classed ? *classed : -1;
        if (!classed) {
            failClass = failClassIndex.insert(o.failClass, int(failClassIndex.size()));
            fnAddFailClass.call({QJSValue(failClass), QJSValue(o.failClass)});
        }
        obsArgs[0] = QJSValue(indexOf.value(o.meta.id));
        obsArgs[1] = optionalNumber(o.score);
        obsArgs[2] = QJSValue(o.evaluated);
        obsArgs[3] = o.valid ? QJSValue(*o.valid) : QJSValue(QJSValue::NullValue);
        obsArgs[4] = QJSValue(failClass);
        obsArgs[5] = o.error ? QJSValue(*o.error) : QJSValue(QJSValue::NullValue);
        obsArgs[6] = optionalInteger(o.nValid);
        obsArgs[7] = optionalInteger(o.nTotal);
        obsArgs[8] = optionalNumber(o.deltaVsBaseline);
        obsArgs[9] = optionalNumber(o.deltaVsParent);
        fnAddObs.call(obsArgs);
    }

    /// Calls `fn` under the watchdog: its value, or a failure saying that
    /// it threw or ran past the time limit.
    Result<QJSValue> guardedCall(QJSValue &fn, const QJSValueList &args, const QString &what)
    {
        using Called = Result<QJSValue>;
        watchdog->arm(timeLimitMs);
        const QJSValue result = fn.call(args);
        const bool timedOut = watchdog->disarm();
        if (timedOut)
            return Called::failure(QStringLiteral("%1 ran past its time limit of %2 ms").arg(what).arg(timeLimitMs));
        // The runtime wraps every call in try/catch and answers {v} or {e, line}.
        if (result.isError() || !result.isObject())
            return Called::failure(QStringLiteral("%1 failed: %2").arg(what, result.toString()));
        const QJSValue thrown = result.property(QStringLiteral("e"));
        if (!thrown.isUndefined()) {
            QString message = thrown.toString();
            const int line = result.property(QStringLiteral("line")).toInt();
            if (line > 0)
                message += QStringLiteral(" (line %1)").arg(line);
            return Called::failure(QStringLiteral("%1 threw: %2").arg(what, message));
        }
        return Called::success(result.property(QStringLiteral("v")));
    }

    QJSValue stringArray(const QStringList &list)
    {
        QJSValue array = engine.newArray(uint(list.size()));
        for (int i = 0; i < list.size(); ++i)
            array.setProperty(quint32(i), list.at(i));
        return array;
    }
};

ScriptedPolicy::ScriptedPolicy()
    : d(std::make_unique<Private>())
{
    d->watchdog = std::make_unique<ScriptWatchdog>(&d->engine);
}

ScriptedPolicy::~ScriptedPolicy()
{
    d->watchdog.reset();
}

Result<std::unique_ptr<ScriptedPolicy>> ScriptedPolicy::create(const QString &source, const QString &label,
                                                               int timeLimitMs, quint32 seed)
{
    using Made = Result<std::unique_ptr<ScriptedPolicy>>;
    std::unique_ptr<ScriptedPolicy> policy(new ScriptedPolicy);
    Private &p = *policy->d;
    p.label = label;
    p.timeLimitMs = timeLimitMs > 0 ? timeLimitMs : 2000;
    p.seed = seed == 0 ? 0x9E3779B9u : seed;

    // The policy's top level becomes the body of a factory so that each
    // episode starts it afresh; the first line stays line 1 of the file.
    const QString wrapped = QStringLiteral("(function () {") + source
        + QStringLiteral(
              "\n;return { selectBatch: typeof selectBatch === \"function\" ? selectBatch : undefined,"
              " planGrid: typeof planGrid === \"function\" ? planGrid : undefined,"
              " defaultBeta: typeof defaultBeta !== \"undefined\" ? defaultBeta : undefined };\n})");
    // Qt compiles code given to QJSEngine::evaluate as if it could see a
    // caller's scope, and so without the interpreter's property lookup
    // caches; code made by the Function constructor has them (about a fifth
    // less CPU over a scripted replay). The policy and the runtime are made
    // that way when the policy compiles so; evaluate() stays the judge of
    // every other case and of syntax errors, so each message is as before.
    // The constructor's header moves line numbers down by `lineShift`,
    // which the runtime takes off again.
    const QJSValue viaConstructor =
        p.engine.evaluate(QStringLiteral("(function (src) { return (new Function('return ' + src))(); })"));
    QJSValue factory = viaConstructor.call({QJSValue(wrapped)});
    QJSValue maker;
    int lineShift = 0;
    if (factory.isCallable() && !factory.isError()) {
        maker = viaConstructor.call({QJSValue(runtimeSource())});
        lineShift = viaConstructor.call({QJSValue(QStringLiteral("(new Error().lineNumber)"))}).toInt() - 1;
    }
    if (!maker.isCallable() || lineShift < 0) {
        factory = p.engine.evaluate(wrapped, label, 1);
        maker = QJSValue();
        lineShift = 0;
    }
    if (factory.isError() || !factory.isCallable())
        return Made::failure(QStringLiteral("%1: line %2: %3")
                                 .arg(label)
                                 .arg(factory.property(QStringLiteral("lineNumber")).toInt())
                                 .arg(factory.toString()));
    if (!maker.isCallable())
        maker = p.engine.evaluate(runtimeSource(), QStringLiteral("dreamrsi-runtime"), 1);
    if (!maker.isCallable())
        return Made::failure(QStringLiteral("internal error: policy runtime failed to load: %1").arg(maker.toString()));
    p.runtime = maker.call({factory, p.engine.globalObject(), QJSValue(lineShift)});
    if (p.runtime.isError())
        return Made::failure(QStringLiteral("internal error: policy runtime failed to start: %1").arg(p.runtime.toString()));
    p.fnBegin = p.runtime.property(QStringLiteral("begin"));
    p.fnAddTags = p.runtime.property(QStringLiteral("addTags"));
    p.fnAddMeta = p.runtime.property(QStringLiteral("addMeta"));
    p.fnSetLegal = p.runtime.property(QStringLiteral("setLegal"));
    p.fnPlaceLegal = p.runtime.property(QStringLiteral("placeLegal"));
    p.fnDropLegal = p.runtime.property(QStringLiteral("dropLegal"));
    p.fnAddFailClass = p.runtime.property(QStringLiteral("addFailClass"));
    p.fnAddObs = p.runtime.property(QStringLiteral("addObs"));
    p.fnSelect = p.runtime.property(QStringLiteral("select"));
    p.fnFirstRound = p.runtime.property(QStringLiteral("firstRound"));
    p.fnReuseFirstRound = p.runtime.property(QStringLiteral("reuseFirstRound"));
    p.fnPlan = p.runtime.property(QStringLiteral("plan"));

    QJSValue probe = p.runtime.property(QStringLiteral("probe"));
    const Result<QJSValue> probed = p.guardedCall(probe, {}, QStringLiteral("the script's top level"));
    if (!probed)
        return Made::failure(label + QStringLiteral(": ") + probed.error);
    const QJSValue &info = *probed.value;
    p.hasPlanGrid = info.property(QStringLiteral("hasPlanGrid")).toBool();
    const QJSValue beta = info.property(QStringLiteral("defaultBeta"));
    if (beta.isNumber())
        p.defaultBeta = beta.toNumber();
    return Made::success(std::move(policy));
}

QString ScriptedPolicy::name() const
{
    return d->label;
}

std::optional<double> ScriptedPolicy::defaultBeta() const
{
    return d->defaultBeta;
}

bool ScriptedPolicy::hasGridPlanner() const
{
    return d->hasPlanGrid;
}

void ScriptedPolicy::beginEpisode(double beta, int maxParallelism)
{
    d->pendingError.clear();
    d->pushedObservations = 0;
    d->indexOf.clear();
    d->sentLegal.clear();
    d->tagList.clear();
    d->pendingError = d->guardedCall(d->fnBegin, {QJSValue(beta), QJSValue(maxParallelism), QJSValue(int(d->seed))},
                                     QStringLiteral("the script's top level"))
                          .error;
}

GridPlanResult ScriptedPolicy::planGrid(const GridContext &context)
{
    GridPlanResult result;
    if (!d->pendingError.isEmpty()) {
        result.error = d->pendingError;
        return result;
    }
    QJSEngine &e = d->engine;
    QJSValue ctx = e.newObject();
    QJSValue history = e.newArray(uint(context.history.size()));
    for (int i = 0; i < context.history.size(); ++i) {
        const GridHistoryEntry &h = context.history.at(i);
        QJSValue entry = e.newObject();
        entry.setProperty(QStringLiteral("iteration"), double(h.iteration));
        entry.setProperty(QStringLiteral("plannedBranches"), h.plannedBranches);
        entry.setProperty(QStringLiteral("plannedRefinements"), h.plannedRefinements);
        entry.setProperty(QStringLiteral("openedBranches"), h.openedBranches);
        entry.setProperty(QStringLiteral("depth"), h.depth);
        entry.setProperty(QStringLiteral("probes"), h.probes);
        entry.setProperty(QStringLiteral("rounds"), h.rounds);
        entry.setProperty(QStringLiteral("bestScore"), optionalNumber(h.bestScore));
        entry.setProperty(QStringLiteral("beta"), h.beta);
        history.setProperty(quint32(i), entry);
    }
    ctx.setProperty(QStringLiteral("history"), history);
    ctx.setProperty(QStringLiteral("hardMaxBranches"), context.hardMaxBranches);
    ctx.setProperty(QStringLiteral("hardMaxRefinements"), context.hardMaxRefinements);
    QJSValue fallback = e.newObject();
    fallback.setProperty(QStringLiteral("branches"), context.fallback.branches);
    fallback.setProperty(QStringLiteral("refinements"), context.fallback.refinements);
    ctx.setProperty(QStringLiteral("fallbackGrid"), fallback);
    ctx.setProperty(QStringLiteral("maxWorkers"), context.maxWorkers);
    if (context.recordedBranches && context.recordedRefinements) {
        QJSValue recorded = e.newObject();
        recorded.setProperty(QStringLiteral("branches"), *context.recordedBranches);
        recorded.setProperty(QStringLiteral("refinements"), *context.recordedRefinements);
        ctx.setProperty(QStringLiteral("recordedGrid"), recorded);
        ctx.setProperty(QStringLiteral("recordedBranches"), *context.recordedBranches);
        ctx.setProperty(QStringLiteral("recordedRefinements"), *context.recordedRefinements);
    }
    const Result<QJSValue> called = d->guardedCall(d->fnPlan, {ctx}, QStringLiteral("planGrid"));
    if (!called) {
        result.error = called.error;
        return result;
    }
    const QJSValue &plan = *called.value;
    if (!plan.isObject() || plan.isArray() || plan.isCallable()) {
        result.error = QStringLiteral("planGrid returned %1, not an object {branches, refinements, reason}")
                           .arg(typeName(plan));
        return result;
    }
    GridPlan g;
    const char *const fields[] = {"branches", "refinements"};
    int *targets[] = {&g.branches, &g.refinements};
    for (int i = 0; i < 2; ++i) {
        const QJSValue v = plan.property(QLatin1String(fields[i]));
        const double x = v.toNumber();
        if (!v.isNumber() || x != double(qint64(x)) || x < -1e9 || x > 1e9) {
            result.error = QStringLiteral("planGrid returned %1 = %2, not an integer")
                               .arg(QLatin1String(fields[i]), v.toString());
            return result;
        }
        *targets[i] = int(x);
    }
    const QJSValue reason = plan.property(QStringLiteral("reason"));
    if (!reason.isUndefined() && !reason.isNull())
        g.reason = reason.toString();
    result.plan = g;
    return result;
}

PolicyDecision ScriptedPolicy::selectBatch(const PolicyState &state)
{
    if (!d->pendingError.isEmpty())
        return PolicyDecision::failure(d->pendingError);

    // Only what changed crosses into the interpreter: the metadata of cells
    // revealed or legal for the first time, the observations revealed since
    // the last round, and the changes to the legal list. The first call of
    // an episode (nothing sent yet, nothing revealed) may take over the
    // records of the last episode that started with the same legal cells.
    const bool firstCall = d->indexOf.isEmpty() && state.observed().isEmpty();
    const bool reused = firstCall && d->firstRound && d->firstRound->legal == state.legal();
    if (reused) {
        d->fnReuseFirstRound.call({d->firstRound->records});
        d->indexOf = d->firstRound->indexOf;
        d->sentLegal = d->firstRound->sentLegal;
        d->tagList = d->firstRound->tagList;
    }
    const QList<Observation> &observed = state.observed();
    for (qsizetype i = d->pushedObservations; i < observed.size(); ++i) {
        const Observation &o = observed.at(i);
        if (!d->indexOf.contains(o.meta.id))
            d->addMeta(o.meta, -1); // a hand-made state may reveal a cell never legal
        d->addObservation(o);
    }
    d->pushedObservations = observed.size();

    // The legal list is sorted by (branch, attempt) (docs/policy-api.md#state), as the
    // engine keeps it; a hand-made one in another order is sorted here.
    const QList<CellMeta> &legal = state.legal();
    const auto before = [](const CellMeta *a, const CellMeta *b) {
        return a->branch != b->branch ? a->branch < b->branch : a->attempt < b->attempt;
    };
    QVarLengthArray<const CellMeta *, 32> next;
    for (const CellMeta &m : legal)
        next.append(&m);
    if (!std::is_sorted(next.cbegin(), next.cend(), before))
        std::stable_sort(next.begin(), next.end(), before);
    // In the engine a revealed cell's place goes to its branch's next
    // attempt, or the place goes when the branch has none left: walking the
    // interpreter's list against the new one finds the places to change and
    // to drop (the changes keep list positions valid when made in order).
    // When that does not give the new list, the whole list is sent.
    struct Change
    {
        int place;
        const CellMeta *cell; ///< the cell that takes the place; null: the place goes
    };
    QVarLengthArray<Change, 32> changes;
    qsizetype matched = 0;
    for (const Private::Slot &slot : d->sentLegal) {
        if (matched < next.size() && next.at(matched)->branch == slot.branch) {
            if (next.at(matched)->id != slot.id)
                changes.append(Change{int(matched), next.at(matched)});
            ++matched;
        } else {
            changes.append(Change{int(matched), nullptr});
        }
    }
    if (matched == next.size()) {
        for (const Change &change : changes) {
            if (!change.cell)
                d->fnDropLegal.call({QJSValue(change.place)});
            else if (const int *known = d->indexOf.find(change.cell->id))
                d->fnPlaceLegal.call({QJSValue(change.place), QJSValue(*known)});
            else
                d->addMeta(*change.cell, change.place);
        }
    } else {
        QJSValue indices = d->engine.newArray(uint(next.size()));
        for (qsizetype i = 0; i < next.size(); ++i) {
            if (!d->indexOf.contains(next.at(i)->id))
                d->addMeta(*next.at(i), -1);
            indices.setProperty(quint32(i), d->indexOf.value(next.at(i)->id));
        }
        d->fnSetLegal.call({indices});
    }
    d->sentLegal.resize(next.size());
    for (qsizetype i = 0; i < next.size(); ++i)
        d->sentLegal[i] = Private::Slot{next.at(i)->id, next.at(i)->branch};
    if (firstCall && !reused)
        d->firstRound = Private::FirstRound{legal, d->fnFirstRound.call(), d->indexOf, d->sentLegal, d->tagList};

    QJSValue steering(QJSValue::NullValue);
    if (!state.steering().isEmpty()) {
        const PolicySteering &s = state.steering();
        steering = d->engine.newObject();
        QJSValue closed = d->engine.newArray(uint(s.closed.size()));
        for (qsizetype i = 0; i < s.closed.size(); ++i)
            closed.setProperty(quint32(i), s.closed.at(i));
        steering.setProperty(QStringLiteral("closed"), closed);
        steering.setProperty(QStringLiteral("pinned"), d->stringArray(s.pinned));
        QJSValue hints = d->engine.newObject();
        for (const auto &[key, text] : s.hints)
            hints.setProperty(key, text);
        steering.setProperty(QStringLiteral("hints"), hints);
    }
    const Result<QJSValue> called = d->guardedCall(d->fnSelect,
                                                   {QJSValue(state.round()), optionalNumber(state.baselineScore()),
                                                    QJSValue(state.maxParallelism()), steering},
                                                   QStringLiteral("selectBatch"));
    if (!called)
        return PolicyDecision::failure(called.error);
    const QJSValue &result = *called.value;
    if (!result.isArray())
        return PolicyDecision::failure(QStringLiteral("selectBatch returned %1, not an array").arg(typeName(result)));
    PolicyDecision decision;
    const int length = result.property(QStringLiteral("length")).toInt();
    decision.batch.reserve(length);
    for (int i = 0; i < length; ++i) {
        const QJSValue item = result.property(quint32(i));
        if (!item.isString()) {
            return PolicyDecision::failure(
                QStringLiteral("batch item %1 is %2, not a cell id string").arg(i).arg(typeName(item)));
        }
        decision.batch.append(item.toString());
    }
    return decision;
}

} // namespace dreamrsi
