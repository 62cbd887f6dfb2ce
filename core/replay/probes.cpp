#include "probes.h"

#include <algorithm>
#include <cmath>

namespace dreamrsi {

namespace {

using WorldCells::gridOf;
using WorldCells::okScore;

/// "d3" of "direction:d3"; empty for no tag.
QString directionOf(const QString &tag)
{
    return tag.startsWith(WorldCells::directionPrefix()) ? tag.mid(WorldCells::directionPrefix().size()) : tag;
}

QString values(int n)
{
    return n == 1 ? QStringLiteral("1 value") : QStringLiteral("%1 values").arg(n);
}

/// The branch of `episode` with the best ok score (ties: the lowest id), -1 when none scored.
int bestBranch(const DiscoveryTree &episode)
{
    int best = -1;
    std::optional<double> bestScore;
    for (const DiscoveryTree::Branch &b : episode.branches()) {
        for (const int c : b.cells) {
            const std::optional<double> s = okScore(episode.cells().at(c));
            if (s && (!bestScore || *s > *bestScore)) {
                bestScore = s;
                best = b.id;
            }
        }
    }
    return best;
}

QString depthReason(int attempt, const QString &tag, int count)
{
    return tag.isEmpty() ? QStringLiteral("depth %1 had %2").arg(attempt).arg(values(count))
                         : QStringLiteral("depth %1 of %2 had %3").arg(attempt).arg(directionOf(tag), values(count));
}

QString enRouteReason(int depth, const QString &tag, int count)
{
    return tag.isEmpty() ? QStringLiteral("on the way to depth %1, which had %2").arg(depth).arg(values(count))
                         : QStringLiteral("on the way to depth %1 of %2, which had %3").arg(depth).arg(directionOf(tag), values(count));
}

QString rootReason(const QString &tag, int count)
{
    return tag.isEmpty() ? QStringLiteral("first attempts had %1").arg(values(count))
                         : QStringLiteral("first attempts of %1 had %2").arg(directionOf(tag), values(count));
}

/// The evidence at a depth: the stratum a draw there would use (the tag's, else the pool's).
int depthCount(const WorldModel &model, const QString &tag, int attempt)
{
    return std::max(model.gainCount(WorldModel::pooled(), attempt), tag.isEmpty() ? 0 : model.gainCount(tag, attempt));
}

/// The shallowest blind depth at or after `from` on a branch of direction
/// `tag`, within the grid and reachable in `callsLeft` calls (every attempt
/// from `from` to it made once), none when a cell on the way is
/// `unavailable` or nothing reachable is blind.
std::optional<int> blindDepthAhead(const WorldModel &model, const QString &tag, int branch, int from, int refinements,
                                   int callsLeft, const QSet<QString> &unavailable)
{
    for (int a = from; a <= refinements && a - from < callsLeft; ++a) {
        if (unavailable.contains(QStringLiteral("b%1a%2").arg(branch).arg(a)))
            return std::nullopt;
        if (model.depthBlind(tag, a))
            return a;
    }
    return std::nullopt;
}

ProbeCall depthCall(const WorldModel &model, const QString &tag, int branch, int attempt, int depth)
{
    const int count = depthCount(model, tag, depth);
    return ProbeCall{ProbeCall::Kind::Depth, branch, attempt,
                     attempt == depth ? depthReason(depth, tag, count) : enRouteReason(depth, tag, count)};
}

} // namespace

QString ProbeSetting::name() const
{
    switch (mode) {
    case Mode::Off:
        return QStringLiteral("off");
    case Mode::Auto:
        return QStringLiteral("auto");
    case Mode::Early:
        return QStringLiteral("early");
    case Mode::Count:
        break;
    }
    return QString::number(count);
}

std::optional<ProbeSetting> ProbeSetting::parse(const QString &flag, const QString &text, QString *error)
{
    if (text == QLatin1String("auto"))
        return automatic();
    if (text == QLatin1String("early"))
        return early();
    if (text == QLatin1String("off"))
        return off();
    bool ok = false;
    const int n = text.toInt(&ok);
    if (ok && n >= 0 && n <= MaxCalls)
        return calls(n);
    if (error)
        *error = QStringLiteral("%1 takes auto, early, off or a number of calls 0 … %2 (got '%3')").arg(flag).arg(MaxCalls).arg(text);
    return std::nullopt;
}

bool Probes::refiningPaid(const DiscoveryTree &tree)
{
    for (const DiscoveryTree::Branch &b : tree.branches()) {
        double best = 0.0;
        for (qsizetype a = 0; a < b.cells.size(); ++a) {
            const double s = tree.cells().at(b.cells.at(a)).effectiveScore();
            if (a > 0 && s > best + 1e-12)
                return true;
            best = a == 0 ? s : std::max(best, s);
        }
    }
    return false;
}

bool Probes::isProbe(const Cell &cell)
{
    return cell.tags.contains(tag());
}

std::optional<ProbeCall> Probes::next(const DiscoveryTree &episode, const WorldModel &model, const QStringList &directions,
                                      const QSet<QString> &unavailable, int callsLeft)
{
    const GridShape grid = gridOf(episode);
    // 1. Deeper on the best branch, towards the shallowest blind depth the calls left reach.
    if (const int b = bestBranch(episode); b >= 0) {
        const int attempt = int(episode.branches().at(episode.branchIndex(b)).cells.size());
        const QString tag = Imagination::branchTag(episode, b, directions);
        if (const std::optional<int> depth =
                blindDepthAhead(model, tag, b, attempt, grid.refinements, std::max(1, callsLeft), unavailable))
            return depthCall(model, tag, b, attempt, *depth);
    }
    // 2. A first attempt in a direction whose first attempts are blind.
    for (int b = 0; b < grid.branches; ++b) {
        if (episode.branchIndex(b) >= 0)
            continue;
        const QString tag = Imagination::branchTag(episode, b, directions);
        ProbeCall call{ProbeCall::Kind::Root, b, 0, rootReason(tag, model.firstCount(tag))};
        if (model.firstBlind(tag) && !unavailable.contains(call.cellId()))
            return call;
    }
    return std::nullopt;
}

QList<ProbeCall> Probes::plan(const DiscoveryTree &episode, const WorldModel &model, const QStringList &directions,
                              int budget)
{
    QList<ProbeCall> out;
    const GridShape grid = gridOf(episode);
    const int nmin = model.options().minSamples;
    // The best branch, one attempt after another while a blind depth lies within the calls left.
    if (const int b = bestBranch(episode); b >= 0) {
        const QString tag = Imagination::branchTag(episode, b, directions);
        for (int a = int(episode.branches().at(episode.branchIndex(b)).cells.size()); out.size() < budget; ++a) {
            const std::optional<int> depth =
                blindDepthAhead(model, tag, b, a, grid.refinements, int(budget - out.size()), {});
            if (!depth)
                break;
            out.append(depthCall(model, tag, b, a, *depth));
        }
    }
    // Then unopened branches while their direction's first attempts stay blind.
    QHash<QString, int> added;
    for (int b = 0; b < grid.branches && out.size() < budget; ++b) {
        if (episode.branchIndex(b) >= 0)
            continue;
        const QString tag = Imagination::branchTag(episode, b, directions);
        const int count = model.firstCount(tag) + added.value(tag);
        if (count >= nmin)
            continue;
        out.append(ProbeCall{ProbeCall::Kind::Root, b, 0, rootReason(tag, count)});
        added[tag] += 1;
    }
    return out;
}

} // namespace dreamrsi
