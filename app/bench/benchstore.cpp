// `dreamrsi bench store`: the store's speed figures (import many worlds; open a
// large project and load one large tree).
#include "benches.h"

#include "store/projectreader.h"
#include "store/projectwriter.h"

#include <QElapsedTimer>
#include <QRandomGenerator>
#include <QTemporaryDir>

#include <ctime>

namespace dreamrsi {

namespace {

/// A synthetic world with the fields a real round stores: branches of
/// `depth` attempts, proposal and program text, metrics and agent usage.
DiscoveryTree syntheticWorld(int cells, int depth, quint32 seed)
{
    QRandomGenerator rng(seed);
    QList<Cell> list;
    list.reserve(cells);
    const int branches = (cells + depth - 1) / depth;
    qint64 seq = 0;
    for (int a = 0; a < depth; ++a) {
        for (int b = 0; b < branches && seq < cells; ++b) {
            Cell c;
            c.id = QStringLiteral("b%1a%2").arg(b).arg(a);
            c.branch = b;
            c.attempt = a;
            c.seq = seq++;
            const bool failed = rng.bounded(10) == 0;
            if (!failed)
                c.score = 1.0 + rng.generateDouble();
            c.evaluated = !failed;
            c.valid = !failed;
            c.failClass = QLatin1String(failed ? FailClass::Runtime : FailClass::Ok);
            if (failed)
                c.error = QStringLiteral("IndexError: list index out of range");
            c.nValid = failed ? 0 : 5;
            c.nTotal = 5;
            c.tags = {QStringLiteral("direction:%1").arg(b % 7)};
            c.payload.insert(QStringLiteral("proposal"),
                             QStringLiteral("**Direction %1.** Refinement %2: tighten the step size and re-seed "
                                            "the lattice from the best packing so far.")
                                 .arg(b)
                                 .arg(a));
            c.payload.insert(QStringLiteral("program"),
                             QStringLiteral("import numpy as np\n\ndef construct(n=26, steps=%1):\n"
                                            "    rng = np.random.default_rng(%2)\n    xy = rng.uniform(0.1, 0.9, (n, 2))\n"
                                            "    r = np.full(n, 0.05)\n    for _ in range(steps):\n"
                                            "        r = grow(xy, r)\n    return xy, r\n")
                                 .arg(100 + a)
                                 .arg(b));
            c.payload.insert(QStringLiteral("metrics"), QJsonObject{{QStringLiteral("sum_radii"), c.score.value_or(0.0)},
                                                                    {QStringLiteral("wall_s"), rng.bounded(20.0)}});
            c.payload.insert(QStringLiteral("agent"), QJsonObject{{QStringLiteral("name"), QStringLiteral("builtin")},
                                                                  {QStringLiteral("tokens_in"), 4000 + int(rng.bounded(2000))},
                                                                  {QStringLiteral("tokens_out"), 900 + int(rng.bounded(900))}});
            list.append(std::move(c));
        }
    }
    TreeMeta meta;
    meta.task = QStringLiteral("synthetic");
    meta.baselineScore = 1.0;
    meta.maxParallelism = 10;
    meta.grid = GridShape{branches, depth - 1};
    return *DiscoveryTree::build(std::move(meta), std::move(list));
}

/// Process CPU time in ms: on a busy machine the wall time also counts
/// other programs, so both are printed.
qint64 cpuMs()
{
    return qint64(double(std::clock()) * 1000.0 / CLOCKS_PER_SEC);
}

} // namespace

int benchStore(const StoreBenchOptions &options, QTextStream &out, QTextStream &err)
{
    const int worlds = options.worlds, cells = options.cells, projectCells = options.projectCells,
              treeCells = options.treeCells;
    QTemporaryDir dir;
    if (!dir.isValid()) {
        err << "error: cannot create a temporary folder: " << dir.errorString() << '\n';
        return 1;
    }
    const auto fail = [&err](const QString &message) {
        err << "error: " << message << '\n';
        return 1;
    };

    // 1. Import: one transaction per world, as `dreamrsi import` of that many files does per call.
    QList<DiscoveryTree> trees;
    trees.reserve(worlds);
    for (int i = 0; i < worlds; ++i)
        trees.append(syntheticWorld(cells, 11, quint32(i + 1)));
    {
        const QString path = dir.filePath(QStringLiteral("import.dreamrsi"));
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::create(path, ProjectInfo());
        if (!w.ok())
            return fail(w.error);
        QElapsedTimer t;
        t.start();
        const qint64 cpu0 = cpuMs();
        for (const DiscoveryTree &tree : std::as_const(trees)) {
            const StoreResult<IterationId> id = (*w.value)->importTree(tree);
            if (!id.ok())
                return fail(id.error);
        }
        const qint64 ms = t.elapsed();
        out << "import      " << worlds << " worlds x " << cells << " cells = " << qint64(worlds) * cells
            << " cells, one transaction per world: " << ms << " ms wall, " << cpuMs() - cpu0 << " ms cpu ("
            << qint64(double(worlds) * cells / double(std::max<qint64>(ms, 1)) * 1000.0)
            << " cells/s; goal < 5000 ms)\n";
    }
    trees.clear();

    // 2. Open a large project and load one large tree.
    const QString big = dir.filePath(QStringLiteral("big.dreamrsi"));
    {
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::create(big, ProjectInfo());
        if (!w.ok())
            return fail(w.error);
        int stored = 0;
        quint32 seed = 1000;
        while (stored < projectCells) {
            const int n = std::min(treeCells, projectCells - stored);
            const StoreResult<IterationId> id = (*w.value)->importTree(syntheticWorld(n, 11, seed++));
            if (!id.ok())
                return fail(id.error);
            stored += n;
        }
    }
    QElapsedTimer t;
    t.start();
    const qint64 cpu0 = cpuMs();
    StoreResult<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::open(big);
    if (!writer.ok())
        return fail(writer.error);
    const qint64 writerOpenMs = t.elapsed();
    t.restart();
    StoreResult<std::unique_ptr<ProjectReader>> reader = ProjectReader::open(big);
    if (!reader.ok())
        return fail(reader.error);
    const StoreResult<QList<IterationInfo>> its = (*reader.value)->iterations();
    if (!its.ok() || its.value->isEmpty())
        return fail(its.ok() ? QStringLiteral("no iterations") : its.error);
    const qint64 openMs = t.elapsed();
    QElapsedTimer load;
    load.start();
    const StoreResult<DiscoveryTree> tree = (*reader.value)->loadIteration(its.value->first().id);
    if (!tree.ok())
        return fail(tree.error);
    const qint64 loadMs = load.elapsed();
    const StoreResult<qint64> total = (*reader.value)->cellCount();
    out << "open        project of " << total.value.value_or(0) << " cells: writer open (lock, migration check, "
        << "recovery) " << writerOpenMs << " ms; reader open + list " << its.value->size() << " iterations "
        << openMs << " ms\n";
    out << "load        one tree of " << tree.value->cellCount() << " cells: " << loadMs << " ms\n";
    out << "open+load   " << writerOpenMs + openMs + loadMs << " ms wall, " << cpuMs() - cpu0
        << " ms cpu (goal < 200 ms)\n";
    return 0;
}

} // namespace dreamrsi
