// `dreamrsi bench islands` (islandsbench.h): an imported run's structure and
// behaviour grid on the GUI thread, frame by frame.
#include "islandsbench.h"

#include "benches.h"

#include "import/runimport.h"
#include "tree/behaviourgridview.h"
#include "tree/discoverypage.h"
#include "tree/runstructureview.h"

#include <QApplication>
#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRandomGenerator>
#include <QSlider>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <vector>

namespace dreamrsi {

namespace {

constexpr double FrameMs = 16.0;

QString islandProgramId(int i)
{
    return QStringLiteral("p%1").arg(i, 6, 10, QLatin1Char('0'));
}

double msSince(QElapsedTimer &timer);

} // namespace

bool writeSyntheticRun(const QString &folder, int programs, int islands, QTextStream &err)
{
    if (!QDir().mkpath(folder + QStringLiteral("/programs"))) {
        err << "error: " << folder << ": cannot create the folder\n";
        return false;
    }
    QRandomGenerator random(45);
    std::vector<std::vector<int>> onIsland(static_cast<size_t>(islands));
    std::vector<int> generation(size_t(programs), 0), island(size_t(programs), 0);
    std::vector<double> speedOf(size_t(programs), 0.0), sizeOf(size_t(programs), 0.0);
    const QString code = QStringLiteral("def solve():\n    return 42\n").repeated(10);
    int copies = 0;
    const auto write = [&](const QJsonObject &program) {
        QFile f(QStringLiteral("%1/programs/%2.json").arg(folder, program.value(QLatin1String("id")).toString()));
        if (!f.open(QIODevice::WriteOnly) || f.write(QJsonDocument(program).toJson(QJsonDocument::Compact)) < 0) {
            err << "error: " << f.fileName() << ": cannot write: " << f.errorString() << '\n';
            return false;
        }
        return true;
    };
    for (int i = 0; i < programs; ++i) {
        const int home = i < islands ? i % islands : int(random.bounded(islands));
        QJsonValue parent;
        int gen = 0;
        int p = -1;
        if (i > 0) {
            const bool migrate = random.bounded(40) == 0 || onIsland[size_t(home)].empty();
            const int from = migrate ? int(random.bounded(islands)) : home;
            const std::vector<int> &pool = onIsland[size_t(from)].empty() ? onIsland[0] : onIsland[size_t(from)];
            // Recent programs likelier: the square of a uniform draw from the end.
            const double u = random.generateDouble();
            p = pool[pool.size() - 1 - size_t(u * u * double(pool.size()))];
            gen = generation[size_t(p)] + 1;
            parent = islandProgramId(p);
            if (island[size_t(p)] != home) {
                // The migrant copy on the child's island, as OpenEvolve writes one.
                const QString copy = QStringLiteral("m%1").arg(copies++, 6, 10, QLatin1Char('0'));
                if (!write(QJsonObject{{QLatin1String("id"), copy},
                                       {QLatin1String("code"), code},
                                       {QLatin1String("parent_id"), islandProgramId(p)},
                                       {QLatin1String("generation"), generation[size_t(p)]},
                                       {QLatin1String("timestamp"), 1.7e9 + i - 0.5},
                                       {QLatin1String("metrics"), QJsonObject{}},
                                       {QLatin1String("metadata"),
                                        QJsonObject{{QLatin1String("island"), home}, {QLatin1String("migrant"), true}}}}))
                    return false;
                parent = copy;
            }
        }
        generation[size_t(i)] = gen;
        island[size_t(i)] = home;
        onIsland[size_t(home)].push_back(i);
        // Behaviour drifts from the parent's; the score peaks in one corner
        // of the behaviour space, so lineages climb towards it.
        const auto gauss = [&random] {
            const double u1 = std::max(1e-12, random.generateDouble()), u2 = random.generateDouble();
            return std::sqrt(-2.0 * std::log(u1)) * std::cos(2.0 * M_PI * u2);
        };
        const double speed = p < 0 ? 2.0 : std::clamp(speedOf[size_t(p)] + 0.7 * gauss(), 0.0, 10.0);
        const double size = p < 0 ? 300.0 : std::clamp(sizeOf[size_t(p)] + 50.0 * gauss(), 100.0, 1000.0);
        speedOf[size_t(i)] = speed;
        sizeOf[size_t(i)] = size;
        const double peak = std::exp(-(speed - 7.5) * (speed - 7.5) / 6.0 - (size - 700.0) * (size - 700.0) / 60000.0);
        QJsonObject metrics{{QLatin1String("combined_score"), std::clamp(0.25 + 0.6 * peak + 0.02 * gauss(), 0.0, 1.0)},
                            {QLatin1String("speed"), speed},
                            {QLatin1String("size"), size}};
        if (i % 23 == 11)
            metrics = QJsonObject{{QLatin1String("error"), 0.0}};
        if (!write(QJsonObject{{QLatin1String("id"), islandProgramId(i)},
                               {QLatin1String("code"), code},
                               {QLatin1String("parent_id"), parent},
                               {QLatin1String("generation"), gen},
                               {QLatin1String("timestamp"), 1.7e9 + i},
                               {QLatin1String("iteration_found"), i},
                               {QLatin1String("metrics"), metrics},
                               {QLatin1String("metadata"), QJsonObject{{QLatin1String("island"), home}}}}))
            return false;
    }
    return true;
}

namespace {

double msSince(QElapsedTimer &timer)
{
    const double ms = double(timer.nsecsElapsed()) / 1e6;
    timer.restart();
    return ms;
}

/// One phase's frames: how many, median and slowest.
struct Phase
{
    QString name;
    std::vector<double> frames;
    double worst() const { return frames.empty() ? 0.0 : *std::max_element(frames.begin(), frames.end()); }
    double median() const
    {
        if (frames.empty())
            return 0.0;
        std::vector<double> sorted = frames;
        std::sort(sorted.begin(), sorted.end());
        return sorted[sorted.size() / 2];
    }
};

} // namespace

int benchIslands(const IslandsBenchOptions &options, QTextStream &out, QTextStream &err)
{
    QTemporaryDir dir;
    if (!dir.isValid()) {
        err << "error: cannot create a temporary folder: " << dir.errorString() << '\n';
        return 1;
    }
    const QString run = options.out.isEmpty() ? dir.filePath(QStringLiteral("openevolve/db")) : options.out;
    if (!options.out.isEmpty()) {
        // Never mixed into another run's programs.
        const QFileInfo given(run);
        if (given.exists() && (!given.isDir() || !QDir(run).isEmpty())) {
            err << "error: --out " << run << ": exists and is not an empty folder\n";
            return 1;
        }
    }
    if (!writeSyntheticRun(run, options.programs, options.islands, err))
        return 1;
    out << "islands bench: " << options.programs << " programs on " << options.islands << " islands\n";
    if (!options.out.isEmpty())
        out << "  run written to " << QDir::toNativeSeparators(QFileInfo(run).absoluteFilePath())
            << " (an OpenEvolve run: File > Open Run... in the workbench, or dreamrsi export RUN -o T.json)\n";

    QElapsedTimer timer;
    timer.start();
    Result<RunImport::Imported> imported = RunImport::read(run);
    if (!imported) {
        err << "error: " << imported.error << '\n';
        return 1;
    }
    const auto tree = std::make_shared<const DiscoveryTree>(std::move(imported.value->tree));
    out << "  read and mapped (a worker's, not the GUI thread's): " << QString::number(msSince(timer), 'f', 1) << " ms, "
        << tree->cellCount() << " cells\n";

    DiscoveryPage page;
    page.resize(1400, 900);
    page.show();
    QApplication::processEvents();
    std::vector<Phase> phases;
    const auto frame = [&](Phase &phase, const auto &step) {
        QElapsedTimer t;
        t.start();
        step();
        page.repaint(); // paints synchronously: the frame's whole cost
        QApplication::processEvents();
        phase.frames.push_back(msSince(t));
    };

    Phase open{QStringLiteral("open (genealogy)"), {}};
    QElapsedTimer worker;
    worker.start();
    frame(open, [&] { page.setTree(QStringLiteral("bench run"), tree); });
    // The layouts are made on a worker; the GUI thread goes on handling
    // events (each pass a frame) and takes them when they are ready.
    while (page.preparingOnWorker()) {
        QThread::msleep(2);
        frame(open, [] {});
    }
    const double workerMs = msSince(worker);
    phases.push_back(open);

    Phase islands{QStringLiteral("lay out by island"), {}};
    frame(islands, [&] { page.setLayoutShown(DiscoveryPage::Layout::Islands); });
    phases.push_back(islands);

    Phase pan{QStringLiteral("zoom and pan the islands"), {}};
    RunStructureView *view = page.structureView();
    for (int i = 0; i < 8; ++i)
        frame(pan, [&] { view->zoomIn(); });
    for (int i = 0; i < 8; ++i)
        frame(pan, [&] { view->zoomOut(); });
    frame(pan, [&] { view->fitToView(); });
    phases.push_back(pan);

    Phase grid{QStringLiteral("open the behaviour grid"), {}};
    frame(grid, [&] { page.setLayoutShown(DiscoveryPage::Layout::BehaviourGrid); });
    phases.push_back(grid);

    Phase fill{QStringLiteral("fill the grid along the slider"), {}};
    QSlider *slider = page.gridView()->slider();
    for (int k = 0; k <= options.steps; ++k) {
        const int value = slider->minimum() + int(qint64(slider->maximum() - slider->minimum()) * k / options.steps);
        frame(fill, [&] { slider->setValue(value); });
    }
    page.gridView()->orderBox()->setCurrentIndex(1); // by generation
    for (int k = 0; k <= options.steps; ++k) {
        const int value = slider->minimum() + int(qint64(slider->maximum() - slider->minimum()) * k / options.steps);
        frame(fill, [&] { slider->setValue(value); });
    }
    phases.push_back(fill);

    out << "  genealogy, islands and metrics made on a worker: " << QString::number(workerMs, 'f', 1)
        << " ms from opening to shown\n";
    double worst = 0.0;
    int over = 0;
    out << "  GUI thread, ms per frame (step and paint):\n";
    for (const Phase &p : phases) {
        out << "    " << p.name.leftJustified(34) << " frames " << QString::number(p.frames.size()).rightJustified(4)
            << "  median " << QString::number(p.median(), 'f', 2).rightJustified(7) << "  slowest "
            << QString::number(p.worst(), 'f', 2).rightJustified(7) << '\n';
        worst = std::max(worst, p.worst());
        over += int(std::count_if(p.frames.begin(), p.frames.end(), [](double ms) { return ms > FrameMs; }));
    }
    out << "  slowest frame " << QString::number(worst, 'f', 2) << " ms; " << over << " frame(s) over " << FrameMs
        << " ms\n";
    out.flush();
    return 0;
}

int runBenchIslandsCommand(const QStringList &args, QTextStream &out, QTextStream &err)
{
    IslandsBenchOptions o;
    if (const auto rc = readBenchCounts("islands",
                                        "usage: dreamrsi bench islands [--programs 10000] [--islands 4] [--steps 60] [--out RUN]\n"
                                        "Milliseconds per frame on the GUI thread of an imported run of N programs on\n"
                                        "I islands: opened as its genealogy, laid out by island, zoomed, and its\n"
                                        "behaviour grid filled at S slider positions (creation order, then generations).\n"
                                        "--out RUN keeps the run, written as an OpenEvolve run folder (RUN/programs/)\n"
                                        "that the workbench (File > Open Run...) and dreamrsi export RUN open; RUN must\n"
                                        "not exist or be an empty folder.\n",
                                        args,
                                        {{"programs", &o.programs, 2},
                                         {"islands", &o.islands, 1},
                                         {"steps", &o.steps, 1},
                                         {"out", nullptr, 0, nullptr, &o.out}},
                                        out, err))
        return *rc;
    return benchIslands(o, out, err);
}

} // namespace dreamrsi
