#include "compacttree.h"

#include "discoverytree.h"

namespace dreamrsi {

CompactTree CompactTree::fromTree(const DiscoveryTree &tree)
{
    CompactTree compact;
    compact.cells.reserve(size_t(tree.cellCount()));
    compact.idEnds.reserve(size_t(tree.cellCount()));
    compact.branches.reserve(size_t(tree.branches().size()));
    for (const DiscoveryTree::Branch &b : tree.branches()) {
        compact.branches.push_back(Branch{b.id, int(compact.cells.size()), int(b.cells.size())});
        for (const int index : b.cells) {
            const Cell &c = tree.cells().at(index);
            CellFacts facts;
            facts.hasScore = c.score.has_value();
            facts.score = c.score.value_or(0.0);
            facts.effective = c.effectiveScore();
            facts.branch = c.branch;
            facts.attempt = c.attempt;
            facts.success = c.isSuccess();
            facts.hard = c.failClass == QLatin1String(FailClass::Env);
            compact.cells.push_back(facts);
            compact.ids += c.id;
            compact.idEnds.push_back(compact.ids.size());
        }
    }
    compact.best = tree.bestEffectiveScore();
    compact.approximate = tree.meta().approximate;
    return compact;
}

} // namespace dreamrsi
