#include "remoteclient.h"

#include "remoteaccess.h"
#include "remotejson.h"

#include "model/treejson.h"
#include "store/projectwriter.h"

#include <QDir>
#include <QEventLoop>
#include <QFile>
#include <QJsonDocument>
#include <QNetworkAccessManager>
#include <QNetworkProxy>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>

#include <memory>

namespace dreamrsi {

QString RemoteProject::host() const
{
    return base.port() > 0 ? QStringLiteral("%1:%2").arg(base.host()).arg(base.port()) : base.host();
}

namespace RemoteClient {

bool isUrl(const QString &text)
{
    return text.startsWith(QLatin1String("http://"), Qt::CaseInsensitive)
           || text.startsWith(QLatin1String("https://"), Qt::CaseInsensitive);
}

Result<QUrl> baseOf(const QString &url)
{
    using R = Result<QUrl>;
    const QUrl parsed(url.trimmed(), QUrl::StrictMode);
    if (!parsed.isValid() || parsed.host().isEmpty())
        return R::failure(QStringLiteral("'%1' is not a URL of a served project (http://HOST:PORT/)").arg(url));
    const QString scheme = parsed.scheme().toLower();
    if (scheme != QLatin1String("http") && scheme != QLatin1String("https"))
        return R::failure(QStringLiteral("'%1': a served project is reached over http:// or https://").arg(url));
    if (!parsed.userInfo().isEmpty())
        return R::failure(QStringLiteral("'%1': give the token on its own, not in the URL").arg(url.section(QLatin1Char('@'), -1)));
    if (!(parsed.path().isEmpty() || parsed.path() == QLatin1String("/")) || parsed.hasQuery())
        return R::failure(QStringLiteral("'%1': give the server's root (http://HOST:PORT/), without a path").arg(url));
    QUrl base;
    base.setScheme(scheme);
    base.setHost(parsed.host());
    base.setPort(parsed.port(scheme == QLatin1String("https") ? 443 : 80));
    return R::success(base);
}

Result<RemoteProject> open(const QString &url, const QString &tokenFile)
{
    using R = Result<RemoteProject>;
    const Result<QUrl> base = baseOf(url);
    if (!base)
        return base.failureAs<RemoteProject>();
    if (tokenFile.isEmpty())
        return R::failure(QStringLiteral("a served project needs its token: --token-file FILE (the token `dreamrsi serve` "
                                         "printed or read)"));
    Result<QByteArray> token = RemoteAccess::readTokenFile(tokenFile, QStringLiteral("--token-file"));
    if (!token)
        return token.failureAs<RemoteProject>();
    RemoteProject project;
    project.base = *base.value;
    project.token = *token.value;
    return R::success(project);
}

QString Reply::errorMessage() const
{
    const QJsonObject o = QJsonDocument::fromJson(body).object();
    if (o.contains(QStringLiteral("error")))
        return o.value(QStringLiteral("error")).toString();
    return QString::fromUtf8(body.left(200));
}

Result<Reply> request(const RemoteProject &project, const QByteArray &method, const QString &path, const QByteArray &body,
                      int timeoutMs)
{
    using R = Result<Reply>;
    // One manager per thread, kept: its connections are reused across requests.
    thread_local std::unique_ptr<QNetworkAccessManager> manager;
    if (!manager) {
        manager = std::make_unique<QNetworkAccessManager>();
        manager->setProxy(QNetworkProxy::NoProxy);
    }
    QUrl url = project.base;
    const qsizetype query = path.indexOf(QLatin1Char('?'));
    url.setPath(query < 0 ? path : path.left(query));
    if (query >= 0)
        url.setQuery(path.mid(query + 1));
    QNetworkRequest req(url);
    req.setRawHeader("Authorization", "Bearer " + project.token);
    req.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::ManualRedirectPolicy);
    if (!body.isEmpty())
        req.setHeader(QNetworkRequest::ContentTypeHeader, QByteArrayLiteral("application/json"));
    QNetworkReply *reply = manager->sendCustomRequest(req, method, body);
    QEventLoop loop;
    QTimer limit;
    limit.setSingleShot(true);
    QObject::connect(reply, &QNetworkReply::finished, &loop, &QEventLoop::quit);
    QObject::connect(&limit, &QTimer::timeout, &loop, &QEventLoop::quit);
    limit.start(timeoutMs);
    if (!reply->isFinished())
        loop.exec();
    if (!reply->isFinished()) {
        reply->abort();
        reply->deleteLater();
        return R::failure(QStringLiteral("%1: no answer within %2 s").arg(project.host()).arg(timeoutMs / 1000.0));
    }
    Reply answer;
    answer.status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    answer.body = reply->readAll();
    answer.contentType = reply->header(QNetworkRequest::ContentTypeHeader).toByteArray();
    const QNetworkReply::NetworkError error = reply->error();
    const QString errorString = reply->errorString();
    reply->deleteLater();
    if (answer.status == 0)
        return R::failure(QStringLiteral("%1: %2").arg(project.host(), error == QNetworkReply::NoError ? QStringLiteral("no answer") : errorString));
    return R::success(answer);
}

Result<QByteArray> get(const RemoteProject &project, const QString &path, int timeoutMs)
{
    const Result<Reply> reply = request(project, "GET", path, {}, timeoutMs);
    if (!reply)
        return reply.failureAs<QByteArray>();
    if (!reply.value->ok())
        return Result<QByteArray>::failure(
            QStringLiteral("%1 answered %2: %3").arg(project.host()).arg(reply.value->status).arg(reply.value->errorMessage()));
    return Result<QByteArray>::success(reply.value->body);
}

Result<QJsonObject> getJson(const RemoteProject &project, const QString &path, int timeoutMs)
{
    const Result<QByteArray> body = get(project, path, timeoutMs);
    if (!body)
        return body.failureAs<QJsonObject>();
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(*body.value, &error);
    if (!doc.isObject())
        return Result<QJsonObject>::failure(QStringLiteral("%1%2: the answer is not a JSON object (%3)")
                                                .arg(project.host(), path, error.errorString()));
    return Result<QJsonObject>::success(doc.object());
}

Result<QString> copyIterations(const RemoteProject &project, const QString &dir,
                               const std::optional<std::pair<IterationId, IterationId>> &iterations)
{
    const Result<QJsonObject> body = getJson(project, QStringLiteral("/api/v1/project"));
    if (!body)
        return body.failureAs<QString>();
    const Result<RemoteProjectSummary> summary = RemoteJson::projectFrom(*body.value);
    if (!summary)
        return Result<QString>::failure(QStringLiteral("%1: %2").arg(project.host(), summary.error));
    QString name = summary.value->name.isEmpty() ? project.host() : summary.value->name;
    name.replace(QLatin1Char('/'), QLatin1Char('_'));
    if (iterations)
        name += QStringLiteral(" [%1-%2]").arg(iterations->first).arg(iterations->second);
    const QString path = QDir(dir).filePath(name + QStringLiteral(".dreamrsi"));
    if (QFile::exists(path))
        return Result<QString>::failure(QStringLiteral("%1/ is given twice").arg(project.base.toString()));
    ProjectInfo info;
    info.name = summary.value->name;
    info.task = summary.value->task;
    StoreResult<std::unique_ptr<ProjectWriter>> writer = ProjectWriter::create(path, info);
    if (!writer)
        return Result<QString>::failure(writer.error);
    for (const IterationInfo &it : std::as_const(summary.value->iterations)) {
        if (iterations && (it.id < iterations->first || it.id > iterations->second))
            continue;
        const Result<QByteArray> bytes = get(project, QStringLiteral("/api/v1/iterations/%1/tree").arg(it.id), 120000);
        if (!bytes)
            return bytes.failureAs<QString>();
        TreeJson::ParseResult tree = TreeJson::parse(*bytes.value);
        if (!tree.ok())
            return Result<QString>::failure(QStringLiteral("%1: iteration %2: %3").arg(project.host()).arg(it.id).arg(tree.error.message));
        IterationInfo copy = it;
        copy.policyVersion = 0; // the versions stay on the server (progress and compare read cells only)
        const StoreResult<IterationId> id = (*writer.value)->beginIteration(copy);
        if (!id)
            return Result<QString>::failure(id.error);
        for (const Cell &c : tree.tree->cells()) {
            if (const StoreResult<Done> done = (*writer.value)->appendCell(*id.value, c); !done)
                return Result<QString>::failure(done.error);
        }
    }
    return Result<QString>::success(path);
}

} // namespace RemoteClient

} // namespace dreamrsi
