#include "imaginedworlds.h"

#include "loop/dream/imaginedhistory.h"


namespace dreamrsi {

ImaginedWorlds::History ImaginedWorlds::historyOf(const QList<WorldEntry> &worlds)
{
    History h;
    for (int row = 0; row < worlds.size(); ++row) {
        const WorldEntry &w = worlds.at(row);
        if (w.iteration != 0 && w.tree) {
            h.worlds.append(ReplayWorld{w.name, w.tree});
            h.rows.append(row);
        }
    }
    return h;
}

ImaginationOptions ImaginedWorlds::optionsFor(const QList<ReplayWorld> &history)
{
    // The rule of Imagination::imagine(): the first world whose task has directions.
    ImaginationOptions options;
    for (const ReplayWorld &w : history) {
        if (!options.directions.isEmpty())
            break;
        if (w.tree && w.tree->meta().task && !w.tree->meta().task->isEmpty())
            options.directions = ImaginedHistories::taskDirections(*w.tree->meta().task);
    }
    return options;
}

WorldModel ImaginedWorlds::fit(const QList<ReplayWorld> &history)
{
    QList<const DiscoveryTree *> trees;
    for (const ReplayWorld &w : history) {
        if (w.tree)
            trees.append(w.tree.get());
    }
    return WorldModel::fit(trees, optionsFor(history));
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
    const WorldModel model = fit(history);
    out.model = model.toJson();
    out.directions = model.options().directions;
    Result<DiscoveryTree> drawn = Imagination::complete(*history.at(world).tree, model, seed, world, completion);
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
