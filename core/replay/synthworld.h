#pragma once

#include "model/discoverytree.h"

#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// Parameters of a synthetic world.
///
/// Regimes (the improvement dynamics along a branch):
/// - "steady":  every branch has a quality drawn once; each successful
///              refinement adds a small positive step with noise, so
///              refining pays until the branch ends.
/// - "plateau": like steady, but steps shrink geometrically, so branches
///              stall after a few refinements.
/// - "needle":  most branches are flat and weak; one branch in ten is
///              strong and keeps improving.
/// - "noisy":   no trend: each attempt is the branch quality plus large noise.
///
/// Four more regimes model what a history can teach an exploration policy
/// (the counterfactual loop's study; SynthWorld::studyRegimes()). Each
/// branch gets one of eight directions (`direction:d0` … `d7`) drawn per
/// branch, so which branch carries which direction changes from world to
/// world while what a direction is worth stays a property of the "task":
/// - "directions": directions d2 and d5 start higher and keep improving;
///                 the other six start lower and barely move.
/// - "late":       refinements stall for three to five attempts, then half
///                 of the branches climb in large steps; a policy that closes
///                 stalled branches early never sees those gains.
/// - "flat":       the first attempt of a branch is as good as it gets;
///                 refinements only add noise around it.
/// - "deep":       late's worlds with the gains one attempt later (from
///                 attempt 4 to 6 on): a first deployment that stops at
///                 attempt 2 or 3 reveals none of them (issue: the frugality
///                 trap; the study's fourth regime).
/// Failures: each attempt fails with probability `failRate` with a fail class
/// drawn from compile/runtime/correctness/resource/timeout, and one branch in
/// twenty fails with "env" from some attempt on. Branch lengths vary between
/// depth/2 and depth.
struct SynthParams
{
    int width = 10;       ///< branches
    int depth = 11;       ///< longest branch (attempts)
    double failRate = 0.2;
    QString regime = QStringLiteral("steady");
    quint64 seed = 1;
    int maxParallelism = 10;
};

namespace SynthWorld {

/// The four regimes of the replay benchmarks.
QStringList regimes();
/// The four regimes of the counterfactual loop's study.
QStringList studyRegimes();
/// A valid tree, identical for identical parameters (own generator; no
/// dependency on the platform's random library).
DiscoveryTree generate(const SynthParams &params);
/// Checks the parameters; empty when fine, else a message naming the field.
QString validate(const SynthParams &params);

} // namespace SynthWorld
} // namespace dreamrsi
