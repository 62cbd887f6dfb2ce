#include "agentpolicydeveloper.h"

#include <QFile>
#include <QStringList>

#include <algorithm>

namespace dreamrsi {

namespace {

constexpr int MaxTraceRounds = 14;     ///< rounds of one traced episode shown in full
constexpr int MaxHistoryCode = 6000;   ///< characters of an earlier failed version's code

QString number(double x)
{
    return QString::number(x, 'g', 6);
}

QString optionalNumber(const std::optional<double> &x)
{
    return x ? number(*x) : QStringLiteral("null");
}

QString fence(const QString &code)
{
    return QStringLiteral("```javascript\n") + code + (code.endsWith(QLatin1Char('\n')) ? QString() : QStringLiteral("\n"))
        + QStringLiteral("```\n");
}

void appendResults(QStringList &out, const ReplayResult &result)
{
    for (const SweepResult &s : result.worlds) {
        out << QStringLiteral("### World %1: B = %2 cells, S = %3%4").arg(s.world).arg(s.cells).arg(number(s.best),
                                                                                                   s.scorable ? QString() : QStringLiteral(" (not scorable)"));
        out << QStringLiteral("value %1, hypervolume %2, penalty %3")
                   .arg(optionalNumber(s.value), optionalNumber(s.hypervolume), optionalNumber(s.penalty));
        QStringList frontier;
        for (const ParetoPoint &p : s.frontier)
            frontier << QStringLiteral("(%1, %2)").arg(p.calls).arg(number(p.attainment));
        out << QStringLiteral("frontier (calls, attainment): %1").arg(frontier.isEmpty() ? QStringLiteral("none") : frontier.join(QStringLiteral(" ")));
        out << QStringLiteral("| β | calls n | rounds k | attainment a | best | error |");
        out << QStringLiteral("|---|---|---|---|---|---|");
        for (const EpisodeResult &e : s.episodes) {
            out << QStringLiteral("| %1 | %2 | %3 | %4 | %5 | %6 |")
                       .arg(number(e.beta))
                       .arg(e.calls)
                       .arg(e.rounds)
                       .arg(number(e.attainment), number(e.best), e.error.isEmpty() ? QStringLiteral("") : e.error);
        }
        if (!s.error.isEmpty())
            out << QStringLiteral("world error: %1").arg(s.error);
        out << QString();
    }
}

void appendTrace(QStringList &out, const TracedEpisode &t)
{
    const EpisodeResult &e = t.episode;
    out << QStringLiteral("### %1 at β = %2: %3 calls, %4 rounds, attainment %5%6")
               .arg(t.world, number(e.beta))
               .arg(e.calls)
               .arg(e.rounds)
               .arg(number(e.attainment), e.error.isEmpty() ? QString() : QStringLiteral(", error: ") + e.error);
    if (e.plan)
        out << QStringLiteral("grid plan: %1 branches × %2 refinements (%3)").arg(e.plan->branches).arg(e.plan->refinements).arg(e.plan->reason);
    int shown = 0;
    for (const RoundTrace &r : e.trace) {
        if (shown == MaxTraceRounds) {
            out << QStringLiteral("… %1 more rounds").arg(e.trace.size() - shown);
            break;
        }
        ++shown;
        QStringList revealed;
        for (const RevealedCell &c : r.revealed)
            revealed << QStringLiteral("%1=%2%3").arg(c.id, c.score ? number(*c.score) : QStringLiteral("null"),
                                                      c.failClass == QLatin1String("ok") ? QString() : QStringLiteral("(") + c.failClass + QStringLiteral(")"));
        QString line = QStringLiteral("round %1: prefix %2 calls, best %3 (attainment %4), %5 legal, opened [%6]; batch [%7]")
                           .arg(r.round + 1)
                           .arg(r.prefix.calls)
                           .arg(number(r.prefix.best), number(r.prefix.attainment))
                           .arg(r.prefix.legal.size())
                           .arg([&] {
                               QStringList b;
                               for (const int x : r.prefix.openedBranches)
                                   b << QString::number(x);
                               return b.join(QLatin1Char(','));
                           }(),
                                r.batch.join(QLatin1Char(',')));
        if (!revealed.isEmpty())
            line += QStringLiteral(" → ") + revealed.join(QLatin1Char(' '));
        if (!r.error.isEmpty())
            line += QStringLiteral(" ERROR: ") + r.error;
        out << line;
    }
    if (e.trace.isEmpty() || (e.trace.constLast().batch.isEmpty() && e.error.isEmpty()))
        out << QStringLiteral("(the policy returned [] and the episode stopped)");
    out << QString();
}

} // namespace

AgentPolicyDeveloper::AgentPolicyDeveloper(std::shared_ptr<ChatModel> model, QString systemPrompt)
    : m_model(std::move(model)),
      m_system(systemPrompt.isEmpty() ? loadPrompt().valueOr(QString()) : std::move(systemPrompt))
{
    if (m_system.isEmpty())
        m_system = builtinPrompt();
}

QString AgentPolicyDeveloper::kind() const
{
    return m_model ? m_model->kind() : QStringLiteral("none");
}

QString AgentPolicyDeveloper::builtinPrompt()
{
    QFile file(QStringLiteral(":/prompts/policy_development.md"));
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll());
}

Result<QString> AgentPolicyDeveloper::loadPrompt(const QString &path)
{
    QString file = path;
    if (file.isEmpty())
        file = qEnvironmentVariable(PromptEnvironmentVariable);
    if (file.isEmpty())
        return Result<QString>::success(builtinPrompt());
    QFile f(file);
    if (!f.open(QIODevice::ReadOnly))
        return Result<QString>::failure(
            QStringLiteral("%1: cannot read the policy-development prompt: %2").arg(file, f.errorString()));
    const QString text = QString::fromUtf8(f.readAll());
    if (text.trimmed().isEmpty())
        return Result<QString>::failure(
            QStringLiteral("%1: the policy-development prompt is empty").arg(file));
    return Result<QString>::success(text);
}

QString AgentPolicyDeveloper::userMessage(const DevelopmentContext &context)
{
    QStringList out;
    QStringList betas;
    for (const double b : context.betas)
        betas << number(b);
    out << QStringLiteral("# Replay setup");
    out << QStringLiteral("%1 stored worlds; W = %2 workers; λ = %3; β grid {%4}.")
               .arg(context.worldCount)
               .arg(context.workers)
               .arg(number(context.lambda), betas.join(QStringLiteral(", ")));
    out << QString();

    const DevelopedVersion &cur = context.current;
    out << QStringLiteral("# Current version: %1").arg(cur.version.name);
    out << (cur.error.isEmpty() ? QStringLiteral("Mean value over the scorable worlds: %1.").arg(optionalNumber(cur.value))
                                : QStringLiteral("This version FAILED: %1").arg(cur.error));
    out << QString();
    out << QStringLiteral("## Its code");
    out << fence(cur.version.code);
    if (cur.result) {
        out << QStringLiteral("## Its replay results per world");
        appendResults(out, *cur.result);
    }
    if (!context.traces.isEmpty()) {
        out << QStringLiteral("## Traces of its weakest episodes (worst worlds first)");
        out << QStringLiteral("Each round: the prefix the policy saw, its batch, and what the batch revealed (id=score, fail class when not ok).");
        out << QString();
        for (const TracedEpisode &t : context.traces)
            appendTrace(out, t);
    }
    if (!context.worldStats.isEmpty()) {
        out << QStringLiteral("# What the stored worlds show, per direction");
        out << QStringLiteral("Branches are grouped by the `direction:NAME` tag a script reads from `state.meta(id).tags` "
                              "(legal roots included) and from observations.");
        out << QString();
        out << context.worldStats.markdown();
        out << QString();
    }
    if (!context.history.isEmpty()) {
        out << QStringLiteral("# Earlier versions of this dream (oldest first)");
        for (const DevelopedVersion &v : context.history) {
            out << QStringLiteral("- %1: %2").arg(v.version.name,
                                                  v.error.isEmpty() ? QStringLiteral("mean value %1").arg(optionalNumber(v.value))
                                                                    : QStringLiteral("FAILED: %1").arg(v.error));
        }
        out << QString();
        for (const DevelopedVersion &v : context.history) {
            if (v.error.isEmpty() || v.version.code.trimmed().isEmpty())
                continue;
            out << QStringLiteral("## Code of failed version %1").arg(v.version.name);
            out << fence(v.version.code.left(MaxHistoryCode));
        }
    }
    out << QStringLiteral("# Task");
    out << QStringLiteral("Write the next version. Keep what the measurements support, change what they show is "
                          "losing value, and fix any failure above. End your answer with the complete script in one "
                          "fenced code block.");
    return out.join(QLatin1Char('\n'));
}

DevelopmentOutcome AgentPolicyDeveloper::develop(const DevelopmentContext &context, const std::atomic_bool &cancel)
{
    DevelopmentOutcome outcome;
    outcome.origin = PolicyOrigin::Agent;
    if (!m_model) {
        outcome.error = QStringLiteral("no chat model is configured for policy development");
        return outcome;
    }
    outcome.model = m_model->model();
    ChatRequest request;
    request.system = m_system;
    request.user = userMessage(context);
    outcome.prompt = request.user;
    const ChatResponse response = m_model->complete(request, cancel);
    outcome.usage = response.usage;
    outcome.response = response.text;
    if (response.cancelled || cancel.load()) {
        outcome.cancelled = true;
        outcome.error = QStringLiteral("cancelled");
        return outcome;
    }
    if (!response.ok) {
        outcome.error = QStringLiteral("the %1 model failed: %2")
                            .arg(m_model->kind(), response.error.isEmpty() ? QStringLiteral("no answer") : response.error);
        return outcome;
    }
    const std::optional<QString> code = lastFencedCodeBlock(response.text);
    if (!code) {
        outcome.error = QStringLiteral("the answer has no fenced code block: the new script must be the last "
                                       "```javascript … ``` block of the answer");
        return outcome;
    }
    outcome.code = *code;
    outcome.ok = true;
    return outcome;
}

} // namespace dreamrsi
