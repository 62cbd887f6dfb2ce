#include "projectfiles.h"

#include "artifactstore.h"
#include "projectreader.h"
#include "projectwriter.h"
#include "schema.h"
#include "sqliteconnection.h"
#include "sqlitestatement.h"

#include "model/treejson.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSaveFile>

namespace dreamrsi::ProjectFiles {

namespace {

constexpr int BundleApplicationId = 0x44525342; // "DRSB"

Result<Done> writeWhole(const QString &path, const QByteArray &bytes)
{
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || f.write(bytes) != bytes.size() || !f.commit())
        return Result<Done>::failure(QStringLiteral("%1: cannot write: %2").arg(path, f.errorString()));
    return Result<Done>::success({});
}

/// Removes a file or folder left by an attempt that failed half-way.
void removeAll(const QString &path)
{
    const QFileInfo fi(path);
    if (fi.isDir())
        QDir(path).removeRecursively();
    else if (fi.exists())
        QFile::remove(path);
}

} // namespace

StoreResult<std::unique_ptr<ProjectReader>> openReader(const QString &path)
{
    // Reading never writes: an older schema is upgraded in memory by the reader.
    return ProjectReader::open(path);
}

StoreResult<PolicyVersion> importPolicyFile(const QString &projectPath, const PolicyFileImport &import)
{
    using R = StoreResult<PolicyVersion>;
    PolicyVersion v;
    v.origin = import.origin;
    QFile f(import.file);
    if (!f.open(QIODevice::ReadOnly))
        return R::failure(QStringLiteral("%1: cannot read: %2").arg(import.file, f.errorString()));
    v.code = QString::fromUtf8(f.readAll());
    v.name = import.name.isEmpty() ? QFileInfo(import.file).completeBaseName() : import.name;
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(projectPath);
    if (!w.ok())
        return w.failureAs<PolicyVersion>();
    if (!import.parentName.isEmpty()) {
        StoreResult<std::unique_ptr<ProjectReader>> r = ProjectReader::open(projectPath);
        StoreResult<PolicyVersion> parent =
            r.ok() ? (*r.value)->policyVersionByName(import.parentName) : r.failureAs<PolicyVersion>();
        if (!parent.ok())
            return parent;
        v.parent = parent.value->id;
    }
    const StoreResult<PolicyVersionId> id = (*w.value)->addPolicyVersion(v);
    if (!id.ok())
        return id.failureAs<PolicyVersion>();
    v.id = *id.value;
    return R::success(v);
}

StoreResult<QList<IterationId>> importTreeFiles(ProjectWriter &writer, const QStringList &paths)
{
    using R = StoreResult<QList<IterationId>>;
    QList<DiscoveryTree> trees;
    QStringList sources;
    for (const QString &path : paths) {
        TreeJson::ParseResult r = TreeJson::readFile(path);
        if (!r.ok())
            return R::failure(r.error.message + QStringLiteral(" (nothing was imported)"));
        trees.append(std::move(*r.tree));
        sources.append(QFileInfo(path).fileName());
    }
    return writer.importTrees(trees, sources);
}

StoreResult<Done> exportTree(ProjectReader &reader, IterationId id, const QString &outPath)
{
    StoreResult<DiscoveryTree> tree = reader.loadIteration(id);
    if (!tree.ok())
        return StoreResult<Done>::failure(tree.error);
    return TreeJson::writeFile(*tree.value, outPath);
}

StoreResult<Done> exportIterationDir(ProjectReader &reader, IterationId id, const QString &dir)
{
    using R = StoreResult<Done>;
    if (!QDir().mkpath(dir))
        return R::failure(QStringLiteral("%1: cannot create the folder").arg(dir));
    StoreResult<IterationInfo> info = reader.iteration(id);
    if (!info.ok())
        return R::failure(info.error);
    StoreResult<DiscoveryTree> tree = reader.loadIteration(id);
    if (!tree.ok())
        return R::failure(tree.error);
    if (const R written = TreeJson::writeFile(*tree.value, QDir(dir).filePath(QStringLiteral("tree.json"))); !written)
        return written;

    const IterationInfo &it = *info.value;
    QJsonObject round;
    round.insert(QStringLiteral("format"), QStringLiteral("dreamrsi-iteration/1"));
    round.insert(QStringLiteral("id"), it.id);
    round.insert(QStringLiteral("status"), iterationStatusName(it.status));
    round.insert(QStringLiteral("started"), it.started.toString(Qt::ISODateWithMs));
    round.insert(QStringLiteral("finished"), it.finished.isValid() ? QJsonValue(it.finished.toString(Qt::ISODateWithMs))
                                                                    : QJsonValue(QJsonValue::Null));
    round.insert(QStringLiteral("grid_reason"), it.gridReason);
    round.insert(QStringLiteral("beta"), it.beta ? QJsonValue(*it.beta) : QJsonValue(QJsonValue::Null));
    round.insert(QStringLiteral("best_score"), it.bestScore ? QJsonValue(*it.bestScore) : QJsonValue(QJsonValue::Null));
    round.insert(QStringLiteral("cells"), it.cellCount);
    round.insert(QStringLiteral("source"), it.source);
    QJsonValue policy(QJsonValue::Null);
    if (it.policyVersion > 0) {
        StoreResult<PolicyVersion> v = reader.policyVersion(it.policyVersion);
        if (!v.ok())
            return R::failure(v.error);
        policy = QJsonObject{{QStringLiteral("id"), v.value->id},
                             {QStringLiteral("name"), v.value->name},
                             {QStringLiteral("origin"), policyOriginName(v.value->origin)},
                             {QStringLiteral("code"), v.value->code}};
    }
    round.insert(QStringLiteral("policy"), policy);

    QJsonObject artifactIndex;
    for (const Cell &c : tree.value->cells()) {
        StoreResult<QList<ArtifactRef>> refs = reader.cellArtifacts(id, c.id);
        if (!refs.ok())
            return R::failure(refs.error);
        QJsonObject perCell;
        for (const ArtifactRef &ref : *refs.value) {
            StoreResult<QByteArray> bytes = reader.readArtifact(ref.hash);
            if (!bytes.ok())
                return R::failure(bytes.error);
            const QString cellDir = QDir(dir).filePath(QStringLiteral("artifacts/") + c.id);
            // Names come from the database; keep them inside the cell's folder.
            const QString name = QFileInfo(ref.name).fileName();
            if (name.isEmpty() || name == QLatin1String("..") || name == QLatin1String("."))
                return R::failure(QStringLiteral("cell \"%1\": artifact %2 has an unusable name \"%3\"")
                                      .arg(c.id, ref.hash, ref.name));
            if (!QDir().mkpath(cellDir))
                return R::failure(QStringLiteral("%1: cannot create the folder").arg(cellDir));
            if (const R written = writeWhole(QDir(cellDir).filePath(name), *bytes.value); !written)
                return written;
            perCell.insert(name, ref.hash);
        }
        if (!perCell.isEmpty())
            artifactIndex.insert(c.id, perCell);
    }
    round.insert(QStringLiteral("artifacts"), artifactIndex);
    return writeWhole(QDir(dir).filePath(QStringLiteral("iteration.json")), QJsonDocument(round).toJson());
}

StoreResult<Done> exportBundle(const QString &projectPath, const QString &bundlePath)
{
    using R = StoreResult<Done>;
    const QString project = QFileInfo(projectPath).absoluteFilePath();
    const QString bundle = QFileInfo(bundlePath).absoluteFilePath();
    if (QFileInfo::exists(bundle))
        return R::failure(QStringLiteral("%1: already exists; choose a new bundle name").arg(bundle));
    if (!QFileInfo::exists(project))
        return R::failure(QStringLiteral("%1: no such project file").arg(project));
    Result<std::unique_ptr<SqliteConnection>> opened = SqliteConnection::open(project, SqliteConnection::Mode::ReadWrite);
    if (!opened)
        opened = SqliteConnection::open(project, SqliteConnection::Mode::ReadOnly);
    if (!opened)
        return R::failure(QStringLiteral("%1: cannot open: %2").arg(project, opened.error));
    std::unique_ptr<SqliteConnection> src = std::move(*opened.value);
    // Not query_only: VACUUM INTO counts as a write, though it only reads this database.
    if (const Result<Done> configured = Schema::configure(*src, true); !configured)
        return R::failure(QStringLiteral("%1: %2").arg(project, configured.error));
    if (const Result<int> prepared = Schema::prepare(*src, false, false); !prepared)
        return prepared.failureAs<Done>();

    const QString part = bundle + QStringLiteral(".part");
    removeAll(part);
    {
        SqliteStatement vacuum(*src, "VACUUM INTO ?1");
        vacuum.bind(1, part);
        if (!vacuum.run()) {
            removeAll(part);
            return R::failure(QStringLiteral("%1: cannot write the bundle: %2").arg(bundle, vacuum.error()));
        }
    }
    src.reset();

    const ArtifactStore artifacts(ArtifactStore::folderFor(project));
    {
        Result<std::unique_ptr<SqliteConnection>> made = SqliteConnection::open(part, SqliteConnection::Mode::ReadWrite);
        if (!made) {
            removeAll(part);
            return R::failure(QStringLiteral("%1: %2").arg(bundle, made.error));
        }
        std::unique_ptr<SqliteConnection> out = std::move(*made.value);
        const auto fail = [&](const QString &message) {
            out.reset();
            removeAll(part);
            return R::failure(message);
        };
        if (const Result<Done> begun = out->exec("PRAGMA journal_mode = DELETE; BEGIN;"
                                                 "CREATE TABLE bundle_artifacts(hash TEXT PRIMARY KEY, content BLOB NOT NULL);");
            !begun)
            return fail(QStringLiteral("%1: %2").arg(bundle, begun.error));
        {
            // Artifacts kept in their rows (schema 12) came with VACUUM INTO.
            SqliteStatement list(*out, "SELECT hash FROM artifacts WHERE content IS NULL ORDER BY hash");
            SqliteStatement put(*out, "INSERT INTO bundle_artifacts(hash, content) VALUES (?1, ?2)");
            SqliteStatement::Step step;
            while ((step = list.step()) == SqliteStatement::Step::Row) {
                const QString hash = list.text(0);
                const Result<QByteArray> content = artifacts.read(hash);
                if (!content)
                    return fail(QStringLiteral("%1: cannot bundle the project: %2").arg(bundle, content.error));
                put.bind(1, hash);
                put.bindBlob(2, *content.value);
                const bool ok = put.run();
                put.reset();
                if (!ok)
                    return fail(QStringLiteral("%1: %2").arg(bundle, put.error()));
            }
            if (step == SqliteStatement::Step::Error)
                return fail(QStringLiteral("%1: %2").arg(bundle, list.error()));
        }
        const QByteArray finish = QByteArray("PRAGMA application_id = ") + QByteArray::number(BundleApplicationId)
                                  + QByteArray("; COMMIT;");
        if (const Result<Done> finished = out->exec(finish.constData()); !finished)
            return fail(QStringLiteral("%1: %2").arg(bundle, finished.error));
    }
    if (!QFile::rename(part, bundle)) {
        removeAll(part);
        return R::failure(QStringLiteral("%1: cannot move the finished bundle into place").arg(bundle));
    }
    return R::success({});
}

StoreResult<Done> importBundle(const QString &bundlePath, const QString &projectPath)
{
    using R = StoreResult<Done>;
    const QString bundle = QFileInfo(bundlePath).absoluteFilePath();
    const QString project = QFileInfo(projectPath).absoluteFilePath();
    const QString artifactDir = ArtifactStore::folderFor(project);
    if (!QFileInfo::exists(bundle))
        return R::failure(QStringLiteral("%1: no such bundle").arg(bundle));
    if (QFileInfo::exists(project))
        return R::failure(QStringLiteral("%1: already exists; choose a new project file name").arg(project));
    if (QFileInfo::exists(artifactDir))
        return R::failure(QStringLiteral("%1: an artifact folder of that name already exists").arg(artifactDir));

    const QString part = project + QStringLiteral(".part");
    const QString artifactPart = artifactDir + QStringLiteral(".part");
    removeAll(part);
    removeAll(artifactPart);
    const auto fail = [&](const QString &message) {
        removeAll(part);
        removeAll(artifactPart);
        return R::failure(message);
    };
    if (!QFile::copy(bundle, part))
        return fail(QStringLiteral("%1: cannot write %2").arg(bundle, part));
    QFile::setPermissions(part, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther);
    {
        Result<std::unique_ptr<SqliteConnection>> opened = SqliteConnection::open(part, SqliteConnection::Mode::ReadWrite);
        if (!opened)
            return fail(QStringLiteral("%1: cannot open: %2").arg(bundle, opened.error));
        std::unique_ptr<SqliteConnection> db = std::move(*opened.value);
        const Result<qint64> appId = db->queryInt("PRAGMA application_id;");
        if (!appId || *appId.value != BundleApplicationId) {
            db.reset();
            return fail(QStringLiteral("%1: not a Dream-RSI project bundle%2")
                            .arg(bundle, appId ? QString() : QStringLiteral(" (%1)").arg(appId.error)));
        }
        const std::optional<qint64> version = db->queryInt("PRAGMA user_version;").value;
        if (!version || *version > Schema::CurrentVersion) {
            db.reset();
            return fail(QStringLiteral("%1: the bundle has schema version %2, written by a newer Dream-RSI; "
                                       "this build reads versions up to %3")
                            .arg(bundle)
                            .arg(version.value_or(-1))
                            .arg(Schema::CurrentVersion));
        }
        {
            SqliteStatement check(*db, "PRAGMA integrity_check");
            if (check.step() != SqliteStatement::Step::Row || check.text(0) != QLatin1String("ok")) {
                const QString what = check.isValid() ? check.text(0) : check.error();
                return fail(QStringLiteral("%1: the bundle is damaged: %2").arg(bundle, what));
            }
        }
        const ArtifactStore artifacts(artifactPart);
        if (const Result<Done> folder = artifacts.ensureFolder(); !folder)
            return fail(folder.error);
        {
            SqliteStatement list(*db, "SELECT hash, content FROM bundle_artifacts ORDER BY hash");
            SqliteStatement::Step step;
            while ((step = list.step()) == SqliteStatement::Step::Row) {
                const QString hash = list.text(0);
                const QByteArray content = list.blob(1);
                if (ArtifactStore::hashOf(content) != hash)
                    return fail(QStringLiteral("%1: artifact %2 in the bundle is corrupted").arg(bundle, hash));
                if (const Result<QString> put = artifacts.put(content); !put)
                    return fail(put.error);
            }
            if (step == SqliteStatement::Step::Error)
                return fail(QStringLiteral("%1: %2").arg(bundle, list.error()));
        }
        {
            SqliteStatement missing(*db, *version >= 12 ? "SELECT hash FROM artifacts WHERE content IS NULL AND hash NOT IN "
                                                          "(SELECT hash FROM bundle_artifacts)"
                                                        : "SELECT hash FROM artifacts WHERE hash NOT IN "
                                                          "(SELECT hash FROM bundle_artifacts)");
            if (missing.step() == SqliteStatement::Step::Row)
                return fail(QStringLiteral("%1: the bundle lacks artifact %2").arg(bundle, missing.text(0)));
        }
        const QByteArray finish = QByteArray("DROP TABLE bundle_artifacts; PRAGMA application_id = ")
                                  + QByteArray::number(Schema::ApplicationId) + QByteArray("; VACUUM;");
        if (const Result<Done> finished = db->exec(finish.constData()); !finished)
            return fail(QStringLiteral("%1: %2").arg(part, finished.error));
    }
    if (!QFile::rename(artifactPart, artifactDir))
        return fail(QStringLiteral("%1: cannot move the artifact folder into place").arg(artifactDir));
    if (!QFile::rename(part, project)) {
        QDir(artifactDir).removeRecursively();
        return fail(QStringLiteral("%1: cannot move the project into place").arg(project));
    }
    // Opening once for writing migrates an older schema and switches to WAL.
    StoreResult<std::unique_ptr<ProjectWriter>> w = ProjectWriter::open(project);
    if (!w.ok())
        return R::failure(w.error);
    return R::success({});
}

} // namespace dreamrsi::ProjectFiles
