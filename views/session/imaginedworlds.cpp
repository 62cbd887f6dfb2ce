#include "imaginedworlds.h"

#include "project/valuationworlds.h"


namespace dreamrsi {

ImaginedWorlds::History ImaginedWorlds::historyOf(const QList<WorldEntry> &worlds, bool includeApproximate)
{
    History h;
    for (int row = 0; row < worlds.size(); ++row) {
        const WorldEntry &w = worlds.at(row);
        if (w.iteration == 0 || !w.tree)
            continue;
        const QList<ProjectWorld> kept = ValuationWorlds::historyOf({ProjectWorld{w.name, w.iteration, w.tree}}, includeApproximate);
        if (kept.isEmpty()) {
            ++h.approximateLeftOut;
            continue;
        }
        h.worlds.append(ReplayWorld{w.name, w.tree});
        h.rows.append(row);
    }
    return h;
}

WorldModels ImaginedWorlds::fitAll(const QList<ReplayWorld> &history)
{
    // What an imagined valuation draws from: one model per task, each with its task's directions.
    return ValuationWorlds::modelsOf(history);
}

WorldModel ImaginedWorlds::fit(const QList<ReplayWorld> &history)
{
    const WorldModels models = fitAll(history);
    for (qsizetype j = history.size() - 1; j >= 0; --j) {
        if (models.groupOf(int(j)) >= 0)
            return models.of(int(j));
    }
    return WorldModel::fit({}, ImaginationOptions());
}

ImaginedWorlds::Completion ImaginedWorlds::draw(const QList<ReplayWorld> &history, int world, quint64 seed, int completion)
{
    Completion out;
    out.world = world;
    out.completion = completion;
    out.seed = seed;
    if (world < 0 || world >= history.size() || !history.at(world).tree) {
        out.error = QStringLiteral("world %1 is not one of the %2 history worlds").arg(world).arg(history.size());
        return out;
    }
    for (const ReplayWorld &w : history) {
        if (!w.tree) {
            out.error = QStringLiteral("history world %1 holds no tree").arg(w.name);
            return out;
        }
    }
    const WorldModels models = fitAll(history);
    const WorldModel &model = models.of(world); // the model of the world's own task
    out.model = model.toJson();
    out.directions = model.options().directions;
    Result<DiscoveryTree> drawn = Imagination::complete(*history.at(world).tree, models, seed, world, completion);
    if (!drawn) {
        out.error = drawn.error;
        return out;
    }
    for (const Cell &c : drawn.value->cells())
        out.imagined += Imagination::isImagined(c) ? 1 : 0;
    out.tree = std::make_shared<const DiscoveryTree>(std::move(*drawn.value));
    return out;
}

} // namespace dreamrsi
