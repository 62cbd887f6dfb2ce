#pragma once

#include <QString>
#include <QStringList>

#include <optional>

namespace dreamrsi {

/// How imagined scores are drawn and bounded where the history holds no
/// evidence (docs/online.md#imagination-rules). It lives with the model
/// because a project's replay configuration and the keys of its stored
/// results name it (core/store), below the imagination itself (core/replay).
enum class ImaginationRule {
    /// Every imagined score clamped at the best score the history revealed;
    /// a blind depth draws its neighbour's gains (the rule the test vectors
    /// of docs/online.md pin down, `--rule capped`).
    Capped,
    /// The same where the model has evidence. At a blind depth (fewer than
    /// NMIN gains there, pooled) a gain is drawn from that depth's own few
    /// values with probability k/NMIN (k of them), else from the neighbour
    /// as capped does, and the ceiling is the history's best plus the
    /// largest gain the task has shown: "go deeper" is uncertain there, not
    /// worth nothing (`--rule widened`).
    Widened,
    /// The same where the model has evidence. At a blind depth a gain is
    /// drawn from that depth's own few values with probability k/NMIN, else
    /// from a wide prior: uniform on [−S, +S], S twice the sample standard
    /// deviation of the history's first-attempt scores (how far apart the
    /// task's starting points lie), and such a draw is clamped at the cap
    /// plus S. A blind depth is as uncertain as the task's scores are wide,
    /// also before any gain was ever seen (`--rule uncertain`).
    Uncertain,
    /// Uncertain near the evidence only: a blind depth within
    /// anchoredWindow() attempts of the deepest depth where the history
    /// showed a positive gain (0 when none) is drawn as uncertain draws it;
    /// a blind depth further out as capped draws it. Depth is worth a look
    /// just past where it last paid, not all the way down (`--rule anchored`).
    Anchored,
};
/// How far past the deepest depth that paid the anchored rule keeps a
/// blind depth uncertain: 4 attempts, the depth issue 52's fourth regime
/// names for its first gains (chosen before any study run, not tuned).
constexpr int anchoredWindow() { return 4; }
/// "capped", "widened", "uncertain", "anchored".
QString imaginationRuleName(ImaginationRule rule);
std::optional<ImaginationRule> imaginationRuleFromName(const QString &name);
/// Every rule's name, in the order of the enum.
QStringList imaginationRuleNames();

} // namespace dreamrsi
