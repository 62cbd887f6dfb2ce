#include "worldmodel.h"

#include "model/splitmix64.h"

#include <QJsonArray>
#include <QSet>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <thread>

namespace dreamrsi {

namespace {

using WorldCells::gridOf;
using WorldCells::okScore;
const QString ImaginedKey = QStringLiteral("imagined");

/// The one-element list drawn from when a stratum and every fallback are empty.
const QList<double> &zeroList()
{
    static const QList<double> zero{0.0};
    return zero;
}

QJsonArray toArray(const QList<double> &values)
{
    QJsonArray a;
    for (const double v : values)
        a.append(v);
    return a;
}

} // namespace

QString Imagination::branchTag(const DiscoveryTree &world, int branchId, const QStringList &directions)
{
    const int index = world.branchIndex(branchId);
    if (index >= 0) {
        for (const int c : world.branches().at(index).cells) {
            for (const QString &tag : world.cells().at(c).tags) {
                if (tag.startsWith(WorldCells::directionPrefix()))
                    return tag;
            }
        }
    }
    // A recorded world knows what its unopened branches explore.
    if (const auto known = world.meta().payload.constFind(QLatin1String("branch_directions"));
        known != world.meta().payload.constEnd()) {
        const QString name = known->toObject().value(QString::number(branchId)).toString();
        if (!name.isEmpty())
            return WorldCells::directionPrefix() + name;
    }
    if (directions.isEmpty() || branchId < 0)
        return {};
    return WorldCells::directionPrefix() + directions.at(branchId % directions.size());
}

WorldModel WorldModel::fit(const QList<const DiscoveryTree *> &history, const ImaginationOptions &options)
{
    WorldModel m;
    m.m_options = options;
    Stratum &pool = m.m_strata[pooled()];
    for (const DiscoveryTree *world : history) {
        if (!world)
            continue;
        for (const DiscoveryTree::Branch &branch : world->branches()) {
            const QString tag = Imagination::branchTag(*world, branch.id, options.directions);
            std::optional<double> run;
            for (qsizetype a = 0; a < branch.cells.size(); ++a) {
                const Cell &cell = world->cells().at(branch.cells.at(a));
                const std::optional<double> s = okScore(cell);
                Trials &f = m.m_failByDepth[int(a)];
                ++f.trials;
                if (!s)
                    ++f.failures;
                if (a >= 1) {
                    ++m.m_failDeep.trials;
                    if (!s)
                        ++m.m_failDeep.failures;
                }
                if (!s)
                    continue;
                if (!m.m_cap || *s > *m.m_cap)
                    m.m_cap = s;
                if (!run) {
                    if (a == 0) {
                        pool.first.append(*s);
                        if (!tag.isEmpty())
                            m.m_strata[tag].first.append(*s);
                    }
                    run = s;
                } else {
                    const double g = *s - *run;
                    m.m_largestGain = std::max(m.m_largestGain, g);
                    if (g > 0.0)
                        m.m_deepestGain = std::max(m.m_deepestGain, int(a));
                    pool.gains[int(a)].append(g);
                    if (!tag.isEmpty())
                        m.m_strata[tag].gains[int(a)].append(g);
                    run = std::max(*run, *s);
                }
            }
        }
    }
    // The last fallback of gain(tag, a): every pooled gain in depth order.
    for (auto it = pool.gains.cbegin(); it != pool.gains.cend(); ++it)
        m.m_allGains.append(it.value());
    if (const qsizetype n = pool.first.size(); n >= 2) {
        const double mean = std::accumulate(pool.first.cbegin(), pool.first.cend(), 0.0) / double(n);
        double squares = 0.0;
        for (const double v : pool.first)
            squares += (v - mean) * (v - mean);
        m.m_priorWidth = 2.0 * std::sqrt(squares / double(n - 1));
    }
    if (!options.cap)
        m.m_cap.reset();
    return m;
}

const WorldModel::Stratum &WorldModel::stratum(const QString &name) const
{
    static const Stratum none;
    const auto it = m_strata.constFind(name);
    return it != m_strata.cend() ? *it : none;
}

double WorldModel::failureRate(int attempt) const
{
    const auto it = m_failByDepth.constFind(attempt);
    if (it != m_failByDepth.cend() && it->trials >= m_options.minSamples)
        return it->rate();
    if (attempt >= 1)
        return m_failDeep.rate();
    return it != m_failByDepth.cend() ? it->rate() : 0.0;
}

const QList<double> &WorldModel::firstScores(const QString &tag) const
{
    if (!tag.isEmpty()) {
        const auto it = m_strata.constFind(tag);
        if (it != m_strata.cend() && it->first.size() >= m_options.minSamples)
            return it->first;
    }
    const Stratum &pool = stratum(pooled());
    return pool.first.isEmpty() ? zeroList() : pool.first;
}

const QList<double> &WorldModel::gains(const QString &tag, int attempt) const
{
    const qsizetype nmin = m_options.minSamples;
    if (!tag.isEmpty()) {
        const auto it = m_strata.constFind(tag);
        if (it != m_strata.cend()) {
            const auto g = it->gains.constFind(attempt);
            if (g != it->gains.cend() && g->size() >= nmin)
                return *g;
        }
    }
    const QMap<int, QList<double>> &pool = stratum(pooled()).gains;
    if (const auto g = pool.constFind(attempt); g != pool.cend() && g->size() >= nmin)
        return *g;
    // The largest depth d ≤ attempt with enough values, else the smallest d > attempt.
    const QList<double> *below = nullptr;
    for (auto it = pool.cbegin(); it != pool.cend() && it.key() <= attempt; ++it) {
        if (it->size() >= nmin)
            below = &it.value();
    }
    if (below)
        return *below;
    for (auto it = pool.upperBound(attempt); it != pool.cend(); ++it) {
        if (it->size() >= nmin)
            return it.value();
    }
    return m_allGains.isEmpty() ? zeroList() : m_allGains;
}

int WorldModel::gainCount(const QString &tag, int attempt) const
{
    const Stratum &st = stratum(tag.isEmpty() ? pooled() : tag);
    const auto g = st.gains.constFind(attempt);
    return g != st.gains.cend() ? int(g->size()) : 0;
}

const QList<double> &WorldModel::blindGains(int attempt) const
{
    static const QList<double> none;
    const Stratum &pool = stratum(pooled());
    const auto g = pool.gains.constFind(attempt);
    return g != pool.gains.cend() ? *g : none;
}

int WorldModel::firstCount(const QString &tag) const
{
    return int(stratum(tag.isEmpty() ? pooled() : tag).first.size());
}

bool WorldModel::priorAt(int attempt) const
{
    switch (m_options.rule) {
    case ImaginationRule::Uncertain:
        return true;
    case ImaginationRule::Anchored:
        return attempt <= m_deepestGain + anchoredWindow();
    case ImaginationRule::Capped:
    case ImaginationRule::Widened:
        break;
    }
    return false;
}

bool WorldModel::depthBlind(const QString &tag, int attempt) const
{
    return gainCount(pooled(), attempt) < m_options.minSamples
           && (tag.isEmpty() || gainCount(tag, attempt) < m_options.minSamples);
}

bool WorldModel::firstBlind(const QString &tag) const
{
    return firstCount(tag) < m_options.minSamples;
}

QList<WorldModel::Evidence> WorldModel::evidence(int maxAttempt) const
{
    QList<Evidence> out;
    for (const QString &name : strata()) {
        out.append(Evidence{name, -1, firstCount(name), firstBlind(name)});
        for (int a = 1; a <= maxAttempt; ++a) {
            const int n = gainCount(name, a);
            // A tag's depth is blind only when the pool is too (gains() falls back to the pool's depth first).
            out.append(Evidence{name, a, n, name == pooled() ? depthBlind(QString(), a) : depthBlind(name, a)});
        }
    }
    return out;
}

QStringList WorldModel::strata() const
{
    QStringList names{pooled()};
    for (auto it = m_strata.cbegin(); it != m_strata.cend(); ++it) {
        if (it.key() != pooled())
            names.append(it.key());
    }
    return names;
}

QJsonObject WorldModel::toJson() const
{
    QJsonArray strata;
    for (const QString &name : this->strata()) {
        const Stratum &s = stratum(name);
        QJsonArray gains;
        for (auto it = s.gains.cbegin(); it != s.gains.cend(); ++it)
            gains.append(QJsonObject{{QStringLiteral("attempt"), it.key()},
                                     {QStringLiteral("count"), int(it->size())},
                                     {QStringLiteral("values"), toArray(it.value())}});
        strata.append(QJsonObject{{QStringLiteral("stratum"), name},
                                  {QStringLiteral("first_count"), int(s.first.size())},
                                  {QStringLiteral("first"), toArray(s.first)},
                                  {QStringLiteral("gains"), gains}});
    }
    QJsonArray failures;
    for (auto it = m_failByDepth.cbegin(); it != m_failByDepth.cend(); ++it)
        failures.append(QJsonObject{{QStringLiteral("attempt"), it.key()},
                                    {QStringLiteral("trials"), it->trials},
                                    {QStringLiteral("failures"), it->failures},
                                    {QStringLiteral("rate"), failureRate(it.key())}});
    return QJsonObject{
        {QStringLiteral("min_samples"), m_options.minSamples},
        {QStringLiteral("cap"), m_cap ? QJsonValue(*m_cap) : QJsonValue()},
        {QStringLiteral("capped"), m_options.cap},
        {QStringLiteral("rule"), imaginationRuleName(m_options.rule)},
        {QStringLiteral("largest_gain"), m_largestGain},
        {QStringLiteral("prior_width"), m_priorWidth},
        {QStringLiteral("deepest_gain"), m_deepestGain},
        {QStringLiteral("directions"), QJsonArray::fromStringList(m_options.directions)},
        {QStringLiteral("strata"), strata},
        {QStringLiteral("failures"), failures},
        {QStringLiteral("failures_deep"), QJsonObject{{QStringLiteral("trials"), m_failDeep.trials},
                                                      {QStringLiteral("failures"), m_failDeep.failures},
                                                      {QStringLiteral("rate"), m_failDeep.rate()}}},
    };
}

namespace {

/// The task a history world belongs to for the per-task models: its tree's
/// `task`, none when it names none (an empty name counts as none).
std::optional<QString> taskOf(const DiscoveryTree &tree)
{
    const std::optional<QString> &task = tree.meta().task;
    return task && !task->isEmpty() ? task : std::nullopt;
}

} // namespace

WorldModels WorldModels::fit(const QList<const DiscoveryTree *> &history, const ImaginationOptions &options,
                             const TaskDirections &directionsOf)
{
    WorldModels m;
    m.m_groupOf.fill(-1, history.size());
    for (qsizetype j = 0; j < history.size(); ++j) {
        if (!history.at(j))
            continue;
        const std::optional<QString> task = taskOf(*history.at(j));
        qsizetype g = 0;
        while (g < m.m_groups.size() && m.m_groups.at(g).task != task)
            ++g;
        if (g == m.m_groups.size())
            m.m_groups.append(Group{task, {}, {}});
        m.m_groups[g].worlds.append(int(j));
        m.m_groupOf[j] = int(g);
    }
    for (Group &group : m.m_groups) {
        QList<const DiscoveryTree *> trees;
        for (const int j : std::as_const(group.worlds))
            trees.append(history.at(j));
        ImaginationOptions own = options;
        if (own.directions.isEmpty() && directionsOf && group.task)
            own.directions = directionsOf(*group.task);
        group.model = WorldModel::fit(trees, own);
    }
    return m;
}

const WorldModel &WorldModels::of(int world) const
{
    static const WorldModel none;
    const int g = groupOf(world);
    return g >= 0 ? m_groups.at(g).model : none;
}

QJsonObject WorldModels::toJson() const
{
    QJsonArray models;
    for (const Group &g : m_groups) {
        QJsonArray worlds;
        for (const int j : g.worlds)
            worlds.append(j);
        models.append(QJsonObject{{QStringLiteral("task"), g.task ? QJsonValue(*g.task) : QJsonValue()},
                                  {QStringLiteral("worlds"), worlds},
                                  {QStringLiteral("model"), g.model.toJson()}});
    }
    QJsonObject o = m_groups.size() == 1 ? m_groups.constFirst().model.toJson() : QJsonObject();
    o.insert(QStringLiteral("models"), models);
    return o;
}

quint64 Imagination::completionSeed(quint64 dreamSeed, int world, int completion)
{
    quint64 x = SplitMix64::mix(dreamSeed);
    x = SplitMix64::mix(x ^ quint64(world));
    return SplitMix64::mix(x ^ quint64(completion));
}

bool Imagination::isImagined(const Cell &cell)
{
    return cell.payload.value(ImaginedKey).toBool(false);
}

namespace {

/// The branch ids of a completion's grid: {0 … B−1} ∪ the revealed ids, ascending.
QList<int> gridBranches(const DiscoveryTree &tree, const GridShape &grid)
{
    QList<int> ids;
    for (int b = 0; b < grid.branches; ++b)
        ids.append(b);
    for (const DiscoveryTree::Branch &b : tree.branches())
        ids.append(b.id);
    std::sort(ids.begin(), ids.end());
    ids.erase(std::unique(ids.begin(), ids.end()), ids.end());
    return ids;
}

int revealedLength(const DiscoveryTree &tree, int branchId)
{
    const int index = tree.branchIndex(branchId);
    return index >= 0 ? int(tree.branches().at(index).cells.size()) : 0;
}

} // namespace

int Imagination::completedCellCount(const DiscoveryTree &tree)
{
    const GridShape grid = gridOf(tree);
    int count = tree.cellCount();
    for (const int id : gridBranches(tree, grid))
        count += std::max(0, grid.refinements + 1 - revealedLength(tree, id));
    return count;
}

QString Imagination::completionName(const QString &world, int completion)
{
    return QStringLiteral("%1 · imagined %2").arg(world).arg(completion);
}

Result<DiscoveryTree> Imagination::complete(const DiscoveryTree &tree, const WorldModel &model, quint64 dreamSeed,
                                            int world, int completion)
{
    // The grid: branch ids {0 … B−1} ∪ the revealed ids, attempts 0 … R
    // (the live fallback 10 × 10 when the world records no grid).
    const GridShape grid = gridOf(tree);
    const QList<int> ids = gridBranches(tree, grid);

    QSet<QString> taken;
    for (const Cell &c : tree.cells())
        taken.insert(c.id);

    SplitMix64 rng(completionSeed(dreamSeed, world, completion));
    QList<Cell> cells = tree.cells();
    qint64 seq = 1000000;
    const QStringList &directions = model.options().directions;
    for (const int id : ids) {
        const int index = tree.branchIndex(id);
        std::optional<double> run;
        int revealed = 0;
        if (index >= 0) {
            const QList<int> &branch = tree.branches().at(index).cells;
            revealed = int(branch.size());
            for (const int c : branch) {
                const std::optional<double> s = okScore(tree.cells().at(c));
                if (s && (!run || *s > *run))
                    run = s;
            }
        }
        const QString tag = branchTag(tree, id, directions);
        for (int a = revealed; a <= grid.refinements; ++a) {
            Cell cell;
            cell.id = QStringLiteral("b%1a%2").arg(id).arg(a);
            if (taken.contains(cell.id))
                cell.id += QStringLiteral("-imagined"); // a recorded cell already has the usual name
            taken.insert(cell.id);
            cell.branch = id;
            cell.attempt = a;
            cell.seq = seq++;
            if (!tag.isEmpty())
                cell.tags = QStringList{tag};
            cell.payload.insert(ImaginedKey, true);
            if (rng.uniform() < model.failureRate(a)) {
                // What a recorded failure without a verdict reads as.
                cell.evaluated = false;
                cell.failClass = QString::fromLatin1(FailClass::Runtime);
            } else {
                // At a blind depth the widened rule draws the depth's own
                // few gains with probability k/NMIN, under a higher ceiling.
                const ImaginationRule rule = model.options().rule;
                const bool blind = run && rule != ImaginationRule::Capped && model.depthBlind(tag, a);
                const bool widened = blind && rule == ImaginationRule::Widened;
                const QList<double> *from = run ? &model.gains(tag, a) : &model.firstScores(tag);
                if (widened) {
                    const QList<double> &own = model.blindGains(a);
                    if (!own.isEmpty() && rng.uniform() * model.options().minSamples < double(own.size()))
                        from = &own;
                }
                double drawn = from->at(qsizetype(rng.uniform() * double(from->size())));
                double ceiling = widened ? model.largestGain() : 0.0;
                if (blind && model.priorAt(a)) {
                    // The uncertain rule (and the anchored one inside its
                    // window), after the capped draw above: the depth's own
                    // k gains with probability k/NMIN, else the wide prior
                    // U(−S, S) with the ceiling raised by S (the choice
                    // takes one draw even when the depth has none).
                    const QList<double> &own = model.blindGains(a);
                    const double choice = rng.uniform();
                    if (!own.isEmpty() && choice * model.options().minSamples < double(own.size())) {
                        drawn = own.at(qsizetype(rng.uniform() * double(own.size())));
                    } else {
                        drawn = (2.0 * rng.uniform() - 1.0) * model.priorWidth();
                        ceiling = model.priorWidth();
                    }
                }
                double s = run ? *run + drawn : drawn;
                if (model.cap())
                    s = std::min(s, *model.cap() + ceiling);
                cell.score = s;
                cell.evaluated = true;
                cell.failClass = QString::fromLatin1(FailClass::Ok);
                run = run ? std::max(*run, s) : s;
            }
            cells.append(std::move(cell));
        }
    }
    TreeError error;
    std::optional<DiscoveryTree> built = DiscoveryTree::build(tree.meta(), std::move(cells), &error);
    if (!built)
        return Result<DiscoveryTree>::failure(
            QStringLiteral("completion %1 of history world %2 is not a valid tree: %3").arg(completion).arg(world).arg(error.message));
    return Result<DiscoveryTree>::success(std::move(*built));
}

Result<DiscoveryTree> Imagination::complete(const DiscoveryTree &tree, const WorldModels &models, quint64 dreamSeed,
                                            int world, int completion)
{
    if (models.groupOf(world) < 0)
        return Result<DiscoveryTree>::failure(
            QStringLiteral("history world %1 has no world model (the models were fitted over other worlds)").arg(world));
    return complete(tree, models.of(world), dreamSeed, world, completion);
}

Result<QList<ReplayWorld>> Imagination::completeAll(const QList<ReplayWorld> &history, const WorldModels &models,
                                                    quint64 dreamSeed, int count, int threads)
{
    if (count < 1)
        return Result<QList<ReplayWorld>>::failure(QStringLiteral("the number of completions must be at least 1 (got %1)").arg(count));
    const qsizetype total = history.size() * count;
    std::vector<std::optional<Result<DiscoveryTree>>> drawn(static_cast<size_t>(total));
    const int workers = std::max(1, std::min<int>(threads > 0 ? threads : int(std::thread::hardware_concurrency()),
                                                  int(std::max<qsizetype>(1, total))));
    // Each completion has its own generator, so which thread draws it does not matter.
    auto work = [&](int from) {
        for (qsizetype i = from; i < total; i += workers) {
            const CompletionPlace p = placeOf(i, count);
            const ReplayWorld &w = history.at(p.world);
            drawn[size_t(i)] = w.tree ? complete(*w.tree, models, dreamSeed, p.world, p.completion)
                                      : Result<DiscoveryTree>::failure(QStringLiteral("history world %1 holds no tree").arg(w.name));
        }
    };
    std::vector<std::thread> pool;
    for (int t = 1; t < workers; ++t)
        pool.emplace_back(work, t);
    work(0);
    for (std::thread &t : pool)
        t.join();

    QList<ReplayWorld> worlds;
    worlds.reserve(total);
    for (qsizetype i = 0; i < total; ++i) {
        Result<DiscoveryTree> &r = *drawn[size_t(i)];
        if (!r)
            return r.failureAs<QList<ReplayWorld>>();
        const CompletionPlace p = placeOf(i, count);
        worlds.append(ReplayWorld{completionName(history.at(p.world).name, p.completion),
                                  std::make_shared<const DiscoveryTree>(std::move(*r.value))});
    }
    return Result<QList<ReplayWorld>>::success(worlds);
}

WorldModels Imagination::fitModels(const QList<ReplayWorld> &history, const ImaginationOptions &options,
                                   const TaskDirections &directionsOf)
{
    QList<const DiscoveryTree *> trees;
    for (const ReplayWorld &w : history)
        trees.append(w.tree.get());
    return WorldModels::fit(trees, options, directionsOf);
}

Result<ImaginedHistory> Imagination::imagine(const QList<ReplayWorld> &history, quint64 seed, int count,
                                             ImaginationOptions options, int threads, const TaskDirections &directionsOf)
{
    if (count < 1)
        return Result<ImaginedHistory>::failure(QStringLiteral("the number of completions C must be at least 1 (got %1)").arg(count));
    for (const ReplayWorld &w : history) {
        if (!w.tree)
            return Result<ImaginedHistory>::failure(QStringLiteral("history world %1 holds no tree").arg(w.name));
    }
    ImaginedHistory out;
    out.model = fitModels(history, options, directionsOf);
    out.count = count;
    out.seed = seed;
    Result<QList<ReplayWorld>> drawn = completeAll(history, out.model, seed, count, threads);
    if (!drawn)
        return drawn.failureAs<ImaginedHistory>();
    out.completions = std::move(*drawn.value);
    return Result<ImaginedHistory>::success(std::move(out));
}

namespace WorldCells {

const QString &directionPrefix()
{
    static const QString prefix = QStringLiteral("direction:");
    return prefix;
}

std::optional<double> okScore(const Cell &cell)
{
    if (cell.failClass != QLatin1String(FailClass::Ok) || !cell.score || !std::isfinite(*cell.score))
        return std::nullopt;
    return cell.score;
}

GridShape gridOf(const DiscoveryTree &tree)
{
    return tree.meta().grid.value_or(GridShape{10, 10});
}

} // namespace WorldCells

} // namespace dreamrsi
