#pragma once

#include "model/studentt.h"
#include "store/storetypes.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>
#include <utility>

namespace dreamrsi {

/// What a cell's stored re-evaluations say about it
/// (docs/online.md#re-evaluating-the-best): its repeats, how many failed,
/// the mean and sample standard deviation of the scores of those that did
/// not, and the 95 % Student-t interval of that mean (n − 1 degrees of
/// freedom; none with fewer than two scores). The cell is *lucky* when its
/// recorded score lies above the interval.
struct ReevaluationStats
{
    IterationId iteration = 0;
    QString cellId;
    std::optional<double> score;         ///< the cell's recorded score (never changed)
    QList<ReevaluationRecord> repeats;   ///< in the order they were stored
    int failed = 0;                      ///< repeats without a score
    int okRepeats = 0;                   ///< repeats with a score
    std::optional<double> mean;          ///< of the scores; none without any
    std::optional<double> sd;            ///< sample standard deviation; none with fewer than two
    std::optional<std::pair<double, double>> ci95; ///< the interval of the mean; none with fewer than two
    bool lucky = false;                  ///< recorded score above ci95's upper end

    /// Half the interval's width; none without an interval.
    std::optional<double> halfWidth() const;

    /// The statistics of one cell's repeats (records of other cells are ignored).
    static ReevaluationStats of(IterationId iteration, const QString &cellId, std::optional<double> score,
                                const QList<ReevaluationRecord> &records);
};

/// Per cell: the statistics of the re-evaluated cells among `cells`, from
/// the iteration's stored records, in the order of `cells`; a cell without
/// records is left out.
QList<ReevaluationStats> reevaluationStats(IterationId iteration, const QList<Cell> &cells,
                                           const QList<ReevaluationRecord> &records);

/// Among `stats`, the cell with the best recorded score and the one with the
/// best mean of its repeats (each empty when none has one).
struct ReevaluationBest
{
    QString byScore;
    QString byMean;
    static ReevaluationBest of(const QList<ReevaluationStats> &stats);
};

namespace ReevaluationJson {
/// One repeat: {"score", "fail_class", "error", "seconds", "backend", "host", "job_id", "time"}.
QJsonObject repeat(const ReevaluationRecord &record);
/// {"iteration", "id", "score", "repeats", "failed", "mean", "sd", "ci95": [lo, hi], "lucky"};
/// an absent value is null.
QJsonObject cell(const ReevaluationStats &stats);
/// {"cells": [...], "best_by_score", "best_by_mean"}: what `dreamrsi reevaluate --json` prints.
QJsonObject report(const QList<ReevaluationStats> &stats);
} // namespace ReevaluationJson

} // namespace dreamrsi
