#pragma once
// Small worlds from short text, shared by the replay and policy suites.
//
//   "0: 1 2 x | 3: 0.5 e | 7: -1 n"
// is branch 0 with attempts scoring 1, 2 and a compile failure, branch 3 with
// 0.5 then an env failure, branch 7 with -1 then an ok evaluation without a
// score (n). Ids are bBaA; seq follows the text order.
#include "model/discoverytree.h"
#include "policy/policy.h"

#include <QStringList>

#include <functional>
#include <memory>

namespace dreamrsi::test {

inline DiscoveryTree world(const QString &text, std::optional<double> baseline = std::nullopt)
{
    QList<Cell> cells;
    qint64 seq = 0;
    for (const QString &part : text.split(QLatin1Char('|'), Qt::SkipEmptyParts)) {
        const QStringList head = part.split(QLatin1Char(':'));
        const int branch = head.at(0).trimmed().toInt();
        const QStringList tokens = head.at(1).split(QLatin1Char(' '), Qt::SkipEmptyParts);
        for (int a = 0; a < tokens.size(); ++a) {
            Cell c;
            c.id = QStringLiteral("b%1a%2").arg(branch).arg(a);
            c.branch = branch;
            c.attempt = a;
            c.seq = seq++;
            const QString &t = tokens.at(a);
            if (t == QLatin1String("x")) {
                c.evaluated = true;
                c.valid = false;
                c.failClass = QStringLiteral("compile");
                c.error = QStringLiteral("does not compile");
            } else if (t == QLatin1String("e")) {
                c.evaluated = false;
                c.failClass = QStringLiteral("env");
                c.error = QStringLiteral("no GPU");
            } else if (t == QLatin1String("n")) {
                c.evaluated = true;
                c.failClass = QStringLiteral("ok");
            } else {
                c.score = t.toDouble();
                c.evaluated = true;
                c.valid = true;
                c.failClass = QStringLiteral("ok");
            }
            c.tags = {QStringLiteral("t%1").arg(branch)};
            cells.append(c);
        }
    }
    TreeMeta meta;
    meta.baselineScore = baseline;
    TreeError error;
    std::optional<DiscoveryTree> tree = DiscoveryTree::build(meta, cells, &error);
    if (!tree)
        qFatal("bad test world: %s", qUtf8Printable(error.message));
    return *tree;
}

/// A C++ policy from a lambda: handy for hand-driven episodes.
class FnPolicy final : public Policy
{
public:
    using Fn = std::function<PolicyDecision(const PolicyState &)>;
    explicit FnPolicy(Fn fn)
        : m_fn(std::move(fn))
    {
    }
    QString name() const override { return QStringLiteral("fn"); }
    void beginEpisode(double, int) override {}
    PolicyDecision selectBatch(const PolicyState &state) override { return m_fn(state); }

private:
    Fn m_fn;
};

/// Reveals every legal cell each round (up to W).
inline PolicyDecision takeAll(const PolicyState &s)
{
    PolicyDecision d;
    for (const CellMeta &m : s.legal()) {
        if (d.batch.size() < s.maxParallelism())
            d.batch.append(m.id);
    }
    return d;
}

} // namespace dreamrsi::test
