// Helper process for the store tests: streams cells into a project (to be
// killed at a random point), holds a project open, or probes opening one.
//   store_helper stream PATH RUN      prints "begin ID" then "committed ID SEQ" per durable cell
//   store_helper hold PATH            prints "ready", keeps the writer until stdin closes
//   store_helper probe-write PATH | probe-read PATH | probe-create PATH
//                                     prints "ok" or "error: MESSAGE"
#include "store_testcells.h"

#include "store/projectreader.h"
#include "store/projectwriter.h"

#include <QCoreApplication>

#include <cstdio>

using namespace dreamrsi;

namespace {

int say(const QString &line)
{
    std::fputs(line.toUtf8().constData(), stdout);
    std::fputc('\n', stdout);
    std::fflush(stdout);
    return 0;
}

int fail(const QString &message)
{
    say(QStringLiteral("error: ") + message);
    return 1;
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    const QStringList args = app.arguments().mid(1);
    if (args.size() < 2)
        return fail(QStringLiteral("usage: store_helper stream|hold|probe-write|probe-read|probe-create PATH [RUN]"));
    const QString mode = args.at(0);
    const QString path = args.at(1);
    if (mode == QLatin1String("stream")) {
        const int run = args.value(2).toInt();
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
        if (!w.ok())
            return fail(w.error);
        IterationInfo info;
        info.number = run;
        info.gridReason = QStringLiteral("crash run %1").arg(run);
        const StoreResult<IterationId> id = (*w.value)->beginIteration(info);
        if (!id.ok())
            return fail(id.error);
        say(QStringLiteral("begin %1").arg(*id.value));
        for (qint64 seq = 0; seq < 1000000; ++seq) {
            const StoreResult<ArtifactRef> ref =
                (*w.value)->putArtifact(storetest::streamedArtifact(run, seq), QStringLiteral("out.txt"));
            if (!ref.ok())
                return fail(ref.error);
            const StoreResult<Done> r = (*w.value)->appendCell(*id.value, storetest::streamedCell(run, seq), {*ref.value});
            if (!r.ok())
                return fail(r.error);
            say(QStringLiteral("committed %1 %2").arg(*id.value).arg(seq));
        }
        return 0;
    }
    if (mode == QLatin1String("hold")) {
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
        if (!w.ok())
            return fail(w.error);
        say(QStringLiteral("ready"));
        char buffer[64];
        while (std::fgets(buffer, sizeof buffer, stdin)) {
        }
        return 0;
    }
    if (mode == QLatin1String("probe-write")) {
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(path);
        return w.ok() ? say(QStringLiteral("ok")) : fail(w.error);
    }
    if (mode == QLatin1String("probe-create")) {
        StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::create(path, ProjectInfo());
        return w.ok() ? say(QStringLiteral("ok")) : fail(w.error);
    }
    if (mode == QLatin1String("probe-read")) {
        StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(path);
        if (!r.ok())
            return fail(r.error);
        const StoreResult<QList<IterationInfo>> its = (*r.value)->iterations();
        return its.ok() ? say(QStringLiteral("ok %1").arg(its.value->size())) : fail(its.error);
    }
    return fail(QStringLiteral("unknown mode '%1'").arg(mode));
}
