#pragma once

#include "base/result.h"

#include <QByteArray>
#include <QDateTime>
#include <QJsonObject>
#include <QList>
#include <QString>

namespace dreamrsi {

/// A stored run of the counterfactual loop: the JSON `dreamrsi loop --worlds
/// --json` prints, kept beside a project when `--project` (or the window)
/// asks for it. They live in the folder `<project>.simulations/`, one file
/// each, named by the UTC time of the run, so storing one never touches the
/// project database and a project's readers see it at once.
struct StoredSimulation
{
    QString path;       ///< the file
    QDateTime created;  ///< from the file name (UTC)
};

/// One arm of a counterfactual run as curves against the iteration: the
/// mean over the repeats and 1.96 × its standard error (0 with one repeat).
struct SimulationArmCurve
{
    QString arm;                     ///< "dream", "dream_guarded", "fixed"
    int repeats = 0;
    QList<int> iterations;           ///< 1 … T
    QList<double> attainmentMean;    ///< NaN where no repeat had a scorable world
    QList<double> attainmentCi95;
    QList<double> callsMean;         ///< cumulative calls
    QList<double> callsCi95;
};

/// The curves of one `loop --worlds --json` output, arms in the file's order.
struct SimulationCurves
{
    QList<SimulationArmCurve> arms;
    QJsonObject summary;             ///< the file's summary, as written
};

namespace ProjectSimulations {

/// Reads the JSON `dreamrsi loop --worlds --json` prints; an error names
/// what is missing or malformed.
Result<SimulationCurves> curvesFromJson(const QByteArray &json);
/// curvesFromJson() of a file; the error starts with the path.
Result<SimulationCurves> readCurves(const QString &path);


/// `<project>.simulations` beside the project file.
QString folderOf(const QString &projectPath);
/// Writes `json` as a new file (written under a temporary name, then
/// renamed into place) and returns its path.
Result<QString> save(const QString &projectPath, const QByteArray &json);
/// The stored runs, oldest first.
QList<StoredSimulation> list(const QString &projectPath);

} // namespace ProjectSimulations
} // namespace dreamrsi
