#include "scoring.h"

#include <algorithm>

namespace dreamrsi {

QList<ParetoPoint> Scoring::paretoFrontier(const QList<ParetoPoint> &points)
{
    QList<ParetoPoint> kept;
    for (const ParetoPoint &p : points) {
        bool dominated = false;
        for (const ParetoPoint &q : points) {
            if (q.calls <= p.calls && q.attainment >= p.attainment
                && (q.calls < p.calls || q.attainment > p.attainment)) {
                dominated = true;
                break;
            }
        }
        if (!dominated && !kept.contains(p))
            kept.append(p);
    }
    std::sort(kept.begin(), kept.end(), [](const ParetoPoint &a, const ParetoPoint &b) {
        return a.calls != b.calls ? a.calls < b.calls : a.attainment < b.attainment;
    });
    return kept;
}

double Scoring::hypervolume(const QList<ParetoPoint> &points, int cellCount)
{
    if (cellCount <= 0)
        return 0.0;
    const QList<ParetoPoint> frontier = paretoFrontier(points);
    const double B = double(cellCount);
    double sum = 0.0;
    double previous = 0.0;
    for (const ParetoPoint &p : frontier) {
        sum += (p.attainment - previous) * (B - double(p.calls));
        previous = p.attainment;
    }
    return (1.0 / B) * sum;
}

double Scoring::penalty(const QList<int> &calls, const QList<int> &rounds, int gridSize)
{
    if (gridSize <= 0)
        return 0.0;
    double sum = 0.0;
    for (int i = 0; i < calls.size() && i < rounds.size(); ++i) {
        if (calls.at(i) > 0)
            sum += double(rounds.at(i)) / double(calls.at(i));
    }
    return (1.0 / double(gridSize)) * sum;
}

double Scoring::value(double hypervolume, double penalty, double lambda)
{
    return hypervolume - lambda * penalty;
}

double Scoring::attainment(double best, double S)
{
    if (!(S > 0.0))
        return 0.0;
    return std::min(std::max(best / S, 0.0), 1.0);
}

} // namespace dreamrsi
