<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="en">
<context>
    <name>ReevaluationSummary</name>
    <message numerus="yes">
        <source>%n repeat(s)</source>
        <translation>
            <numerusform>%n repeat</numerusform>
            <numerusform>%n repeats</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::BehaviourGridView</name>
    <message numerus="yes">
        <source>up to generation %1: %n cell(s)</source>
        <translation>
            <numerusform>up to generation %1: %n cell</numerusform>
            <numerusform>up to generation %1: %n cells</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>up to seq %1: %n cell(s)</source>
        <translation>
            <numerusform>up to seq %1: %n cell</numerusform>
            <numerusform>up to seq %1: %n cells</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n without both metrics</source>
        <translation>
            <numerusform> · %n without both metrics</numerusform>
            <numerusform> · %n without both metrics</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cell(s)</source>
        <translation>
            <numerusform>%n cell</numerusform>
            <numerusform>%n cells</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>  … and %n more</source>
        <translation>
            <numerusform>  … and %n more</numerusform>
            <numerusform>  … and %n more</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::CellTableModel</name>
    <message numerus="yes">
        <source>%n re-evaluation(s), %1 failed</source>
        <translation>
            <numerusform>%n re-evaluation, %1 failed</numerusform>
            <numerusform>%n re-evaluations, %1 failed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::ComparePage</name>
    <message numerus="yes">
        <source>Reading %n source(s)…</source>
        <translation>
            <numerusform>Reading %n source…</numerusform>
            <numerusform>Reading %n sources…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::DiscoveryPage</name>
    <message numerus="yes">
        <source>%n imagined cell(s): completion k = %1 of world j = %2, seed %3</source>
        <translation>
            <numerusform>%n imagined cell: completion k = %1 of world j = %2, seed %3</numerusform>
            <numerusform>%n imagined cells: completion k = %1 of world j = %2, seed %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n match</numerusform>
            <numerusform>%n matches</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Laying out %Ln cell(s)…</source>
        <translation>
            <numerusform>Laying out %Ln cell…</numerusform>
            <numerusform>Laying out %Ln cells…</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::DreamingDialog</name>
    <message numerus="yes">
        <source>Dreaming cancelled after %n version(s).</source>
        <translation>
            <numerusform>Dreaming cancelled after %n version.</numerusform>
            <numerusform>Dreaming cancelled after %n versions.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n approximate world(s) left out; Settings ▸ Include approximate worlds dreams in them too.</source>
        <translation>
            <numerusform>%n approximate world left out; Settings ▸ Include approximate worlds dreams in it too.</numerusform>
            <numerusform>%n approximate worlds left out; Settings ▸ Include approximate worlds dreams in them too.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n candidate(s)</source>
        <translation>
            <numerusform>%n candidate</numerusform>
            <numerusform>%n candidates</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n distinct behaviour(s)</source>
        <translation>
            <numerusform>%n distinct behaviour</numerusform>
            <numerusform>%n distinct behaviours</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n changed nothing at the deployed β</source>
        <translation>
            <numerusform>; %n changed nothing at the deployed β</numerusform>
            <numerusform>; %n changed nothing at the deployed β</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::FrontierPage</name>
    <message numerus="yes">
        <source>Over %n approximate world(s) (imported runs with forks or orphans).</source>
        <translation>
            <numerusform>Over %n approximate world (an imported run with forks or orphans).</numerusform>
            <numerusform>Over %n approximate worlds (imported runs with forks or orphans).</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n checked version(s) without a value under this configuration: no frontier is drawn for them until they are replayed.</source>
        <translation>
            <numerusform>%n checked version without a value under this configuration: no frontier is drawn for it until it is replayed.</numerusform>
            <numerusform>%n checked versions without a value under this configuration: no frontier is drawn for them until they are replayed.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::ImaginedCells</name>
    <message numerus="yes">
        <source>the world is not one of the project&apos;s %n history world(s)</source>
        <translation>
            <numerusform>the world is not one of the project&apos;s %n history world</numerusform>
            <numerusform>the world is not one of the project&apos;s %n history worlds</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::InspectorWidget</name>
    <message numerus="yes">
        <source>Re-evaluated %n time(s), %1 failed</source>
        <translation>
            <numerusform>Re-evaluated %n time, %1 failed</numerusform>
            <numerusform>Re-evaluated %n times, %1 failed</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::LiveTreeModel</name>
    <message numerus="yes">
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n attempt</numerusform>
            <numerusform>%n attempts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::MainWindow</name>
    <message numerus="yes">
        <source>%n interrupted round(s) found; their finished attempts are kept.</source>
        <translation>
            <numerusform>%n interrupted round found; their finished attempts are kept.</numerusform>
            <numerusform>%n interrupted rounds found; their finished attempts are kept.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::ManualBatchBar</name>
    <message numerus="yes">
        <source>At most %n cell(s) per batch (W)</source>
        <translation>
            <numerusform>At most %n cell per batch (W)</numerusform>
            <numerusform>At most %n cells per batch (W)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Round %1 is yours: pick up to %n cell(s) (ticks, or click branches in the list or the tree), then Run. Run with nothing picked ends the round.</source>
        <translation>
            <numerusform>Round %1 is yours: pick up to %n cell (ticks, or click branches in the list or the tree), then Run. Run with nothing picked ends the round.</numerusform>
            <numerusform>Round %1 is yours: pick up to %n cells (ticks, or click branches in the list or the tree), then Run. Run with nothing picked ends the round.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::PoliciesPage</name>
    <message numerus="yes">
        <source>Tunables of %1 against the stored version: %n changed.</source>
        <translation>
            <numerusform>Tunables of %1 against the stored version: %n changed.</numerusform>
            <numerusform>Tunables of %1 against the stored version: %n changed.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Tunables of %1 against its parent %2: %n changed.</source>
        <translation>
            <numerusform>Tunables of %1 against its parent %2: %n changed.</numerusform>
            <numerusform>Tunables of %1 against its parent %2: %n changed.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::ProgressPage</name>
    <message numerus="yes">
        <source>%n iteration(s), %1 agent calls, best score %2.</source>
        <translation>
            <numerusform>%n iteration, %1 agent calls, best score %2.</numerusform>
            <numerusform>%n iterations, %1 agent calls, best score %2.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n iteration(s) of %1 tasks, one curve per task.</source>
        <translation>
            <numerusform>%n iteration of %1 tasks, one curve per task.</numerusform>
            <numerusform>%n iterations of %1 tasks, one curve per task.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::ProjectPage</name>
    <message numerus="yes">
        <source>Replayed %1 over %n world(s): value %2</source>
        <translation>
            <numerusform>Replayed %1 over %n world: value %2</numerusform>
            <numerusform>Replayed %1 over %n worlds: value %2</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Replayed %1 over %n world(s): no value under this configuration (%2)</source>
        <translation>
            <numerusform>Replayed %1 over %n world: no value under this configuration (%2)</numerusform>
            <numerusform>Replayed %1 over %n worlds: no value under this configuration (%2)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n policy version(s) have values computed under another replay configuration: %1.

Replay them now under the project&apos;s configuration? Their old values are kept and listed with their own configuration.</source>
        <translation>
            <numerusform>%n policy version has values computed under another replay configuration: %1.

Replay them now under the project&apos;s configuration? Their old values are kept and listed with their own configuration.</numerusform>
            <numerusform>%n policy versions have values computed under another replay configuration: %1.

Replay them now under the project&apos;s configuration? Their old values are kept and listed with their own configuration.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::ReevaluationActions</name>
    <message numerus="yes">
        <source>Re-evaluation cancelled: %n evaluation(s) stored</source>
        <translation>
            <numerusform>Re-evaluation cancelled: %n evaluation stored</numerusform>
            <numerusform>Re-evaluation cancelled: %n evaluations stored</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Re-evaluation done: %n evaluation(s) stored</source>
        <translation>
            <numerusform>Re-evaluation done: %n evaluation stored</numerusform>
            <numerusform>Re-evaluation done: %n evaluations stored</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::RemoteFollower</name>
    <message numerus="yes">
        <source>Connection to %1 lost: %2; trying again in %n s</source>
        <translation>
            <numerusform>Connection to %1 lost: %2; trying again in %n s</numerusform>
            <numerusform>Connection to %1 lost: %2; trying again in %n s</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::RoundPanel</name>
    <message numerus="yes">
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n attempt</numerusform>
            <numerusform>%n attempts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>The task&apos;s directions, given to branches in turn (branch b&lt;i&gt;N&lt;/i&gt; takes direction &lt;i&gt;N&lt;/i&gt; mod %n):</source>
        <translation>
            <numerusform>The task&apos;s directions, given to branches in turn (branch b&lt;i&gt;N&lt;/i&gt; takes direction &lt;i&gt;N&lt;/i&gt; mod %n):</numerusform>
            <numerusform>The task&apos;s directions, given to branches in turn (branch b&lt;i&gt;N&lt;/i&gt; takes direction &lt;i&gt;N&lt;/i&gt; mod %n):</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Round %1 started a batch of %n attempt(s)</source>
        <translation>
            <numerusform>Round %1 started a batch of %n attempt</numerusform>
            <numerusform>Round %1 started a batch of %n attempts</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n cell(s)</source>
        <translation>
            <numerusform>%n cell</numerusform>
            <numerusform>%n cells</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n round(s)</source>
        <translation>
            <numerusform>%n round</numerusform>
            <numerusform>%n rounds</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Iteration %1 is live: %n attempt(s) running</source>
        <translation>
            <numerusform>Iteration %1 is live: %n attempt running</numerusform>
            <numerusform>Iteration %1 is live: %n attempts running</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::RoundStatus</name>
    <message numerus="yes">
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n attempt</numerusform>
            <numerusform>%n attempts</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::RunStructureView</name>
    <message numerus="yes">
        <source>%n program(s)</source>
        <translation>
            <numerusform>%n program</numerusform>
            <numerusform>%n programs</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::SimulationDialog</name>
    <message numerus="yes">
        <source>The open project&apos;s worlds (%n)</source>
        <translation>
            <numerusform>The open project&apos;s worlds (%n)</numerusform>
            <numerusform>The open project&apos;s worlds (%n)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n world(s) to draw from.</source>
        <translation>
            <numerusform>%n world to draw from.</numerusform>
            <numerusform>%n worlds to draw from.</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::WorldModelPage</name>
    <message numerus="yes">
        <source>Fitting the world models over %n history world(s)…</source>
        <translation>
            <numerusform>Fitting the world models over %n history world…</numerusform>
            <numerusform>Fitting the world models over %n history worlds…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n world(s))</source>
        <translation>
            <numerusform>%1 (%n world)</numerusform>
            <numerusform>%1 (%n worlds)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>No history world: the project&apos;s %n finished iteration(s) are approximate, and the dreams leave them out unless Settings ▸ Include approximate worlds takes them.</source>
        <translation>
            <numerusform>No history world: the project&apos;s %n finished iteration is approximate, and the dreams leave it out unless Settings ▸ Include approximate worlds takes it.</numerusform>
            <numerusform>No history world: the project&apos;s %n finished iterations are approximate, and the dreams leave them out unless Settings ▸ Include approximate worlds takes them.</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: fitted over &lt;b&gt;%n&lt;/b&gt; history world(s) of this task, as a dream fits it</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: fitted over &lt;b&gt;%n&lt;/b&gt; history world of this task, as a dream fits it</numerusform>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;: fitted over &lt;b&gt;%n&lt;/b&gt; history worlds of this task, as a dream fits it</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n history world(s) of other tasks have their own model</source>
        <translation>
            <numerusform>%n history world of other tasks has its own model</numerusform>
            <numerusform>%n history worlds of other tasks have their own model</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n approximate world(s) left out, as the dreams leave them out (Settings ▸ Include approximate worlds)</source>
        <translation>
            <numerusform>%n approximate world left out, as the dreams leave it out (Settings ▸ Include approximate worlds)</numerusform>
            <numerusform>%n approximate worlds left out, as the dreams leave them out (Settings ▸ Include approximate worlds)</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n&lt;/b&gt; blind row(s) in the table, up to depth %1</source>
        <translation>
            <numerusform>&lt;b&gt;%n&lt;/b&gt; blind row in the table, up to depth %1</numerusform>
            <numerusform>&lt;b&gt;%n&lt;/b&gt; blind rows in the table, up to depth %1</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Probes the next deployment would make (--probe auto: at most %n call(s)), planned on %1, the newest world of this task:</source>
        <translation>
            <numerusform>Probes the next deployment would make (--probe auto: at most %n call), planned on %1, the newest world of this task:</numerusform>
            <numerusform>Probes the next deployment would make (--probe auto: at most %n calls), planned on %1, the newest world of this task:</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: one attempt deeper on branch %2, the best branch; depth %3 had %n gain(s)</source>
        <translation>
            <numerusform>%1: one attempt deeper on branch %2, the best branch; depth %3 had %n gain</numerusform>
            <numerusform>%1: one attempt deeper on branch %2, the best branch; depth %3 had %n gains</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: one attempt deeper on branch %2, the best branch; depth %3 of %4 had %n gain(s)</source>
        <translation>
            <numerusform>%1: one attempt deeper on branch %2, the best branch; depth %3 of %4 had %n gain</numerusform>
            <numerusform>%1: one attempt deeper on branch %2, the best branch; depth %3 of %4 had %n gains</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: first attempt of unopened branch %2; first attempts had %n value(s)</source>
        <translation>
            <numerusform>%1: first attempt of unopened branch %2; first attempts had %n value</numerusform>
            <numerusform>%1: first attempt of unopened branch %2; first attempts had %n values</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: first attempt of unopened branch %2; first attempts of %3 had %n value(s)</source>
        <translation>
            <numerusform>%1: first attempt of unopened branch %2; first attempts of %3 had %n value</numerusform>
            <numerusform>%1: first attempt of unopened branch %2; first attempts of %3 had %n values</numerusform>
        </translation>
    </message>
</context>
</TS>
