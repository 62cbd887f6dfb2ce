#include "roundliveness.h"

#include "steeringinbox.h"

#include "model/attemptpayload.h"
#include "store/projectlock.h"
#include "store/projectstore.h"
#include "store/storeawait.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QSaveFile>

#include <algorithm>
#include <cmath>
#include <vector>

namespace dreamrsi {

namespace {

QString isoOf(const QDateTime &t)
{
    return t.isValid() ? t.toUTC().toString(Qt::ISODateWithMs) : QString();
}

QDateTime timeOf(const QJsonValue &v)
{
    QDateTime t = QDateTime::fromString(v.toString(), Qt::ISODateWithMs);
    if (t.isValid())
        t = t.toUTC();
    return t;
}

double secondsBetween(const QDateTime &from, const QDateTime &to)
{
    if (!from.isValid() || !to.isValid())
        return 0.0;
    return std::max(0.0, double(from.msecsTo(to)) / 1000.0);
}

} // namespace

void StoredTimes::add(const Cell &cell)
{
    const AttemptPayload::Timing t = AttemptPayload::timingOf(cell);
    if (t.wallS > 0)
        walls.push_back(t.wallS);
    const QDateTime ended = timeOf(QJsonValue(t.ended));
    if (ended.isValid() && (!lastCellAt.isValid() || ended > lastCellAt))
        lastCellAt = ended;
}

StoredTimes StoredTimes::of(const QList<Cell> &cells)
{
    StoredTimes times;
    times.walls.reserve(std::size_t(cells.size()));
    for (const Cell &c : cells)
        times.add(c);
    return times;
}

double StoredTimes::medianWallS() const
{
    if (walls.empty())
        return 0.0;
    // A partial sort of a copy: linear, also at tens of thousands of cells.
    std::vector<double> w = walls;
    const std::size_t n = w.size();
    const auto mid = w.begin() + std::ptrdiff_t(n / 2);
    std::nth_element(w.begin(), mid, w.end());
    if (n % 2 == 1)
        return *mid;
    const double upper = *mid;
    const double lower = *std::max_element(w.begin(), mid);
    return (lower + upper) / 2.0;
}

QJsonObject IterationLiveness::toJson() const
{
    QJsonObject o;
    o.insert(QStringLiteral("iteration"), iteration);
    o.insert(QStringLiteral("state"), state);
    o.insert(QStringLiteral("last_cell_at"), lastCellAt.isValid() ? QJsonValue(isoOf(lastCellAt)) : QJsonValue());
    o.insert(QStringLiteral("threshold_s"), thresholdS);
    if (!why.isEmpty())
        o.insert(QStringLiteral("why"), why);
    if (!stopped.isEmpty())
        o.insert(QStringLiteral("status"), stopped);
    QJsonArray list;
    for (const AttemptLiveness &a : attempts) {
        QJsonObject e{{QStringLiteral("id"), a.id},
                      {QStringLiteral("phase"), a.phase},
                      {QStringLiteral("age_s"), std::round(a.ageS * 10.0) / 10.0},
                      {QStringLiteral("stalled"), a.stalled}};
        if (!a.why.isEmpty())
            e.insert(QStringLiteral("why"), a.why);
        list.append(e);
    }
    o.insert(QStringLiteral("attempts"), list);
    return o;
}

namespace RoundLiveness {

QString phaseName(RoundAttempt::Control::Phase phase)
{
    switch (phase) {
    case RoundAttempt::Control::Phase::Agent:
        return QStringLiteral("agent");
    case RoundAttempt::Control::Phase::Evaluation:
        return QStringLiteral("evaluation");
    case RoundAttempt::Control::Phase::Queued:
        return QStringLiteral("queued");
    }
    return {};
}

QString filePath(const QString &projectPath)
{
    return SteeringInbox::folderFor(projectPath) + QStringLiteral("/attempts.json");
}

Result<Done> publish(const QString &projectPath, const LiveRound &live)
{
    QJsonArray attempts;
    for (const LiveAttempt &a : live.attempts) {
        QJsonObject o{{QStringLiteral("id"), a.id},
                      {QStringLiteral("phase"), a.phase},
                      {QStringLiteral("started"), isoOf(a.started)},
                      {QStringLiteral("phase_started"), isoOf(a.phaseStarted)}};
        if (a.limitS > 0)
            o.insert(QStringLiteral("limit_s"), a.limitS);
        attempts.append(o);
    }
    const QJsonObject o{{QStringLiteral("pid"), live.pid != 0 ? live.pid : QCoreApplication::applicationPid()},
                        {QStringLiteral("iteration"), live.iteration},
                        {QStringLiteral("written"), isoOf(live.written.isValid() ? live.written : QDateTime::currentDateTimeUtc())},
                        {QStringLiteral("attempts"), attempts}};
    const QString path = filePath(projectPath);
    QDir().mkpath(QFileInfo(path).absolutePath());
    QSaveFile file(path);
    const QByteArray bytes = QJsonDocument(o).toJson(QJsonDocument::Compact);
    if (!file.open(QIODevice::WriteOnly) || file.write(bytes) != bytes.size() || !file.commit())
        return Result<Done>::failure(QStringLiteral("cannot write '%1': %2").arg(path, file.errorString()));
    return Result<Done>::success({});
}

void unpublish(const QString &projectPath)
{
    const std::optional<LiveRound> live = read(projectPath);
    if (live && live->pid == QCoreApplication::applicationPid())
        QFile::remove(filePath(projectPath));
}

std::optional<LiveRound> read(const QString &projectPath)
{
    QFile file(filePath(projectPath));
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll());
    if (!doc.isObject())
        return std::nullopt;
    const QJsonObject o = doc.object();
    LiveRound live;
    live.pid = o.value(QStringLiteral("pid")).toInteger();
    live.iteration = o.value(QStringLiteral("iteration")).toInteger();
    live.written = timeOf(o.value(QStringLiteral("written")));
    for (const QJsonValue &v : o.value(QStringLiteral("attempts")).toArray()) {
        const QJsonObject a = v.toObject();
        live.attempts.append(LiveAttempt{a.value(QStringLiteral("id")).toString(), a.value(QStringLiteral("phase")).toString(),
                                         timeOf(a.value(QStringLiteral("started"))),
                                         timeOf(a.value(QStringLiteral("phase_started"))),
                                         a.value(QStringLiteral("limit_s")).toDouble()});
    }
    return live;
}

std::optional<LiveRound> Observed::recordOf(const IterationInfo &info) const
{
    if (info.status != IterationStatus::Running || !writerAlive || (live && live->iteration == info.id))
        return live;
    LiveRound starting;
    starting.iteration = info.id;
    return starting;
}

Observed observe(const QString &projectPath)
{
    Observed out;
    const std::optional<WriterInfo> writer = ProjectLock::liveWriter(projectPath);
    out.writerAlive = writer.has_value();
    out.live = read(projectPath);
    if (out.live && writer && writer->pid != 0 && out.live->pid != writer->pid)
        out.live.reset();
    return out;
}

double stallFloorS()
{
    bool ok = false;
    const double floor = qEnvironmentVariable("DREAMRSI_STALL_FLOOR_S").toDouble(&ok);
    return ok && floor > 0 ? floor : 60.0;
}

IterationLiveness assess(const IterationInfo &info, const QList<Cell> &cells, const std::optional<LiveRound> &live,
                         bool writerAlive, const QDateTime &now, double floorS)
{
    return assess(info, StoredTimes::of(cells), live, writerAlive, now, floorS);
}

IterationLiveness assess(const IterationInfo &info, const StoredTimes &stored, const std::optional<LiveRound> &live,
                         bool writerAlive, const QDateTime &now, double floorS)
{
    IterationLiveness r;
    r.iteration = info.id;
    r.number = info.number.value_or(info.id);
    r.lastCellAt = stored.lastCellAt;
    r.medianAttemptS = stored.medianWallS();
    r.thresholdS = std::max(5.0 * r.medianAttemptS, floorS);

    if (info.status != IterationStatus::Running && info.status != IterationStatus::Interrupted) {
        r.state = QStringLiteral("finished");
        if (info.status != IterationStatus::Finished)
            r.stopped = iterationStatusName(info.status);
        return r;
    }
    if (info.status == IterationStatus::Interrupted || !writerAlive || !live || live->iteration != info.id) {
        r.state = QStringLiteral("interrupted");
        return r;
    }
    r.state = QStringLiteral("live");
    for (const LiveAttempt &a : live->attempts) {
        AttemptLiveness s;
        s.id = a.id;
        s.phase = a.phase;
        s.ageS = secondsBetween(a.started, now);
        const double inPhase = secondsBetween(a.phaseStarted.isValid() ? a.phaseStarted : a.started, now);
        if (a.limitS > 0 && inPhase > a.limitS) {
            s.stalled = true;
            s.why = QStringLiteral("in %1 for %2 s, past its limit of %3 s").arg(a.phase).arg(qRound(inPhase)).arg(a.limitS);
        }
        r.attempts.append(s);
    }
    if (!r.attempts.isEmpty()) {
        const QDateTime since = r.lastCellAt.isValid() ? r.lastCellAt : info.started.toUTC();
        const double quiet = secondsBetween(since, now);
        if (since.isValid() && quiet > r.thresholdS) {
            r.why = QStringLiteral("no cell stored for %1 s while %2 (threshold %3 s)")
                        .arg(qRound(quiet))
                        .arg(r.attempts.size() == 1 ? QStringLiteral("1 attempt runs")
                                                    : QStringLiteral("%1 attempts run").arg(r.attempts.size()))
                        .arg(r.thresholdS, 0, 'g', 4);
            // Every running attempt is then suspect: none has ended in time.
            for (AttemptLiveness &a : r.attempts) {
                if (!a.stalled && a.ageS > r.thresholdS) {
                    a.stalled = true;
                    a.why = QStringLiteral("running for %1 s, no cell stored for %2 s").arg(qRound(a.ageS)).arg(qRound(quiet));
                }
            }
        }
    }
    const bool anyStalled = std::any_of(r.attempts.cbegin(), r.attempts.cend(), [](const AttemptLiveness &a) { return a.stalled; });
    if (anyStalled || !r.why.isEmpty()) {
        r.state = QStringLiteral("stalled");
        if (r.why.isEmpty()) {
            for (const AttemptLiveness &a : std::as_const(r.attempts)) {
                if (a.stalled) {
                    r.why = QStringLiteral("%1 %2").arg(a.id, a.why);
                    break;
                }
            }
        }
    }
    return r;
}

Result<QList<IterationLiveness>> status(const QString &projectPath)
{
    using R = Result<QList<IterationLiveness>>;
    if (!QFileInfo::exists(projectPath))
        return R::failure(QStringLiteral("no project %1").arg(projectPath));
    ProjectStore store;
    if (const StoreResult<OpenReport> opened = await(store.openReadOnly(projectPath)); !opened.ok())
        return R::failure(opened.error);
    const StoreResult<QList<IterationInfo>> list = await(store.iterations());
    if (!list.ok()) {
        await(store.close());
        return R::failure(list.error);
    }
    const Observed observed = observe(projectPath);
    IterationId newest = 0;
    for (const IterationInfo &it : *list.value)
        newest = std::max(newest, it.id);
    QList<IterationLiveness> out;
    for (const IterationInfo &it : *list.value) {
        const bool open = it.status == IterationStatus::Running || it.status == IterationStatus::Interrupted;
        if (!open && it.id != newest)
            continue;
        const StoreResult<IterationData> data = await(store.iterationData(it.id));
        if (!data.ok()) {
            await(store.close());
            return R::failure(data.error);
        }
        out.append(assess(data.value->info, data.value->cells, observed.recordOf(data.value->info), observed.writerAlive,
                          QDateTime::currentDateTimeUtc()));
    }
    await(store.close());
    return R::success(std::move(out));
}

} // namespace RoundLiveness

} // namespace dreamrsi
