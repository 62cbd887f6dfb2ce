#pragma once

#include "discoverytree.h"

#include <QJsonObject>
#include <QList>
#include <QString>

#include <optional>

namespace dreamrsi {

/// The path to a cell (docs/compare.md#the-path-to-the-best): the chain of
/// programs from the initial program to the cell, each step with its score,
/// its gain over its parent, its proposal and its diff to the parent. An
/// imported run's cells follow their real parents: a fork's `forked_from`
/// (docs/tree-format.md#imported-runs), not the branch it opened. The
/// command `dreamrsi path` and the inspector's Path page share it.
namespace CellPath {

/// One program on the path.
struct Step
{
    int cell = -1;               ///< index into the tree's cells
    std::optional<double> score; ///< the cell's finite score, none when it has none
    /// score − the score it improved on: the nearest scored program before
    /// it on the path (its parent, or further up when the parent failed;
    /// the initial program's baseline score when none on the path is
    /// scored). None when it has no score or there is nothing scored to
    /// compare with (no baseline, or an orphan's chain before its first score).
    std::optional<double> gain;
    /// The step whose score `gain` is measured from (an index into
    /// Path::steps); −1 for the baseline or when there is no gain.
    int gainFrom = -1;
};

/// The steps from the first cell after the initial program to the chosen
/// cell, in that order.
struct Path
{
    QList<Step> steps;
    /// The chain begins at an orphan: its parent is missing from the run, so
    /// the path cannot reach the initial program.
    bool fromOrphan = false;
};

/// The cell `cell` really came from: a fork's `forked_from`, else the
/// attempt before it in its branch; −1 for a child of the initial program
/// (attempt 0) and for an orphan.
int realParent(const DiscoveryTree &tree, int cell);

/// The path to `cell` (an index into the tree's cells). Empty for an index
/// out of range.
Path to(const DiscoveryTree &tree, int cell);

/// The program a step's diff starts from: its parent's program, or for the
/// first step the tree's `initial_program` (empty when it has none).
QString parentProgram(const DiscoveryTree &tree, const Path &path, int step);
/// The name of that program in a diff header: the parent's cell id, or
/// "initial program".
QString parentName(const DiscoveryTree &tree, const Path &path, int step);

/// The proposal's first `lines` non-blank lines, joined by newlines.
QString proposalHead(const Cell &cell, int lines = 3);
/// The first `lines` non-empty lines of `text`, trimmed, one per line.
QString headOf(const QString &text, int lines);

/// `{"path": [{"id", "score", "gain"}, …]}`, ids being the tree's cell ids,
/// scores and gains null when missing.
QJsonObject toJson(const DiscoveryTree &tree, const Path &path);

/// The path as Markdown for a lab notebook: a table of the steps (cell,
/// the run's program id for an imported run, score, gain, the proposal's
/// first line), then per step its proposal's first lines and its unified
/// diff to the parent. `title` names the tree.
QString toMarkdown(const DiscoveryTree &tree, const Path &path, const QString &title);

} // namespace CellPath
} // namespace dreamrsi
