<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name>ImaginedOrigin</name>
    <message>
        <source>a failure (the failure rate at depth %1)</source>
        <translation>一次失败（深度 %1 处的失败率）</translation>
    </message>
    <message>
        <source>a gain over the branch&apos;s best at depth %1</source>
        <translation>深度 %1 处相对分支最佳的增益</translation>
    </message>
    <message>
        <source>a first-attempt score</source>
        <translation>一个首次尝试得分</translation>
    </message>
    <message>
        <source>drawn from the world model: %1, stratum %2; seed %3, world j = %4, completion k = %5</source>
        <translation>从世界模型中抽取：%1，层 %2；种子 %3，世界 j = %4，补全 k = %5</translation>
    </message>
    <message>
        <source>* (pooled)</source>
        <translation>*（合并）</translation>
    </message>
</context>
<context>
    <name>ReevaluationSummary</name>
    <message>
        <source>%1 (recorded %2, mean %3, lucky)</source>
        <translation>%1（记录 %2，均值 %3，侥幸）</translation>
    </message>
    <message>
        <source>%1 (recorded %2, mean %3)</source>
        <translation>%1（记录 %2，均值 %3）</translation>
    </message>
    <message>
        <source>Re-evaluated: best by recorded score and by mean %1</source>
        <translation>重新评估：按记录分数与按均值最佳均为 %1</translation>
    </message>
    <message>
        <source>Re-evaluated: best by recorded score %1</source>
        <translation>重新评估：按记录分数最佳 %1</translation>
    </message>
    <message>
        <source>best by mean %1</source>
        <translation>按均值最佳 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n repeat(s)</source>
        <translation>
            <numerusform>%n 次重复</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: best cell %2 lucky: recorded %3, mean %4 (%5)</source>
        <translation>%1：最佳单元 %2 属侥幸：记录 %3，均值 %4（%5）</translation>
    </message>
    <message>
        <source>%1: best cell %2 holds up: recorded %3, mean %4 (%5)</source>
        <translation>%1：最佳单元 %2 经得起复核：记录 %3，均值 %4（%5）</translation>
    </message>
    <message>
        <source>best by mean %1: %2</source>
        <translation>按均值最佳 %1：%2</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
</context>
<context>
    <name>ReplayJobs</name>
    <message>
        <source>no episode was run</source>
        <translation>未运行任何回合</translation>
    </message>
</context>
<context>
    <name>TreeRenderer</name>
    <message>
        <source>root</source>
        <translation>根</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Best cell</source>
        <translation>最佳单元</translation>
    </message>
    <message>
        <source>%1/%2 s</source>
        <translation>%1/%2 秒</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Imagined (%1)</source>
        <translation>想象单元（%1）</translation>
    </message>
    <message>
        <source>Fork, linked to its real parent (%1)</source>
        <translation>分叉，连向其真实父节点（%1）</translation>
    </message>
    <message>
        <source>Orphan, parent missing (%1)</source>
        <translation>孤儿，父节点缺失（%1）</translation>
    </message>
    <message>
        <source>Imagined failure, class not drawn (%1)</source>
        <translation>想象的失败，未抽取类别（%1）</translation>
    </message>
    <message>
        <source>Probe call (%1)</source>
        <translation>探测调用（%1）</translation>
    </message>
</context>
<context>
    <name>TreeSummaryText</name>
    <message>
        <source>%1 cells, %2 branches, max depth %3, best score %4%5, fail classes: %6</source>
        <translation>%1 个单元，%2 个分支，最大深度 %3，最佳得分 %4%5，失败类别：%6</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source> (not scorable: S = 0)</source>
        <translation>（不可评分：S = 0）</translation>
    </message>
    <message>
        <source>Imported from %1: programs read %2, forks %3, orphans %4, copies dropped %5</source>
        <translation>导入自 %1：读取程序 %2 个，分叉 %3 个，孤儿 %4 个，丢弃副本 %5 个</translation>
    </message>
    <message>
        <source>population snapshot: %1</source>
        <translation>种群快照：%1</translation>
    </message>
    <message>
        <source>An approximate world: replays leave it out unless asked, and label results over it.</source>
        <translation>近似世界：除非明确要求，重放会将其排除，并对基于它的结果加以标注。</translation>
    </message>
</context>
<context>
    <name>dreamrsi</name>
    <message>
        <source>Cumulative agent cost (USD)</source>
        <translation>累计智能体成本（美元）</translation>
    </message>
    <message>
        <source>Elapsed time (s)</source>
        <translation>耗时（秒）</translation>
    </message>
    <message>
        <source>Cumulative agent calls</source>
        <translation>累计智能体调用次数</translation>
    </message>
    <message>
        <source>Cost (USD)</source>
        <translation>成本（美元）</translation>
    </message>
    <message>
        <source>Time (s)</source>
        <translation>时间（秒）</translation>
    </message>
    <message>
        <source>Agent calls</source>
        <translation>智能体调用</translation>
    </message>
    <message>
        <source>Iteration found (population snapshot)</source>
        <translation>发现时的迭代（种群快照）</translation>
    </message>
    <message>
        <source>Cumulative agent calls; iteration found for a snapshot</source>
        <translation>累计智能体调用次数；快照按发现时的迭代</translation>
    </message>
    <message>
        <source>Iteration found</source>
        <translation>发现时的迭代</translation>
    </message>
    <message>
        <source>Calls / iteration</source>
        <translation>调用次数 / 迭代</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ApprovalBar</name>
    <message>
        <source>Review and &amp;Approve…</source>
        <translation>审阅并批准(&amp;A)…</translation>
    </message>
    <message>
        <source>&amp;Decline</source>
        <translation>拒绝(&amp;D)</translation>
    </message>
    <message>
        <source>The loop goes on with the deployed version; the proposal stays listed</source>
        <translation>循环继续使用已部署版本；提案仍保留在列表中</translation>
    </message>
    <message>
        <source>The loop (pid %1) waits for approval after iteration %2: the dream proposes %3 (mean value %4). Until you answer, no round runs.</source>
        <translation>循环（pid %1）在迭代 %2 之后等待批准：梦境推演提议 %3（平均价值 %4）。在您答复之前，不会运行任何轮次。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ApprovalDialog</name>
    <message>
        <source>There is no version named %1.</source>
        <translation>没有名为 %1 的版本。</translation>
    </message>
    <message>
        <source>%1 is not stored in a project. Open or create a project to record approvals.</source>
        <translation>%1 尚未保存在项目中。请打开或新建项目以记录批准。</translation>
    </message>
    <message>
        <source>No world is open to judge %1 by.</source>
        <translation>没有打开的世界可用于评估 %1。</translation>
    </message>
    <message>
        <source>%1 has not been replayed in the open worlds. Replay it first.</source>
        <translation>%1 尚未在已打开的世界中回放。请先回放。</translation>
    </message>
    <message>
        <source>The replay of %1 ended in a policy error: %2</source>
        <translation>%1 的回放因策略错误而结束：%2</translation>
    </message>
    <message>
        <source>No open world could score %1 (every world has S = 0).</source>
        <translation>没有打开的世界能为 %1 评分（所有世界的 S = 0）。</translation>
    </message>
    <message>
        <source>The result of %1 does not cover world %2. Replay it again.</source>
        <translation>%1 的结果未覆盖世界 %2。请重新回放。</translation>
    </message>
    <message>
        <source>%1 scores below %2 (%3 against %4).</source>
        <translation>%1 的得分低于 %2（%3 对 %4）。</translation>
    </message>
    <message>
        <source>Approve %1 for Redeployment</source>
        <translation>批准重新部署 %1</translation>
    </message>
    <message>
        <source>The next online round will run &lt;b&gt;%1&lt;/b&gt;. No other version has a result to compare it with.</source>
        <translation>下一轮在线运行将使用 &lt;b&gt;%1&lt;/b&gt;。没有其他版本的结果可供比较。</translation>
    </message>
    <message>
        <source>The next online round will run &lt;b&gt;%1&lt;/b&gt; instead of the %2 &lt;b&gt;%3&lt;/b&gt;. Compare them world by world before you approve.</source>
        <translation>下一轮在线运行将使用 &lt;b&gt;%1&lt;/b&gt;，取代%2 &lt;b&gt;%3&lt;/b&gt;。请在批准前逐个世界进行比较。</translation>
    </message>
    <message>
        <source>deployed version</source>
        <translation>已部署版本</translation>
    </message>
    <message>
        <source>best other version</source>
        <translation>最佳其他版本</translation>
    </message>
    <message>
        <source>Your name</source>
        <translation>您的姓名</translation>
    </message>
    <message>
        <source>Why this version should run next (kept with the approval)</source>
        <translation>为何下一轮应运行此版本（随批准一同保存）</translation>
    </message>
    <message>
        <source>Approved by:</source>
        <translation>批准人：</translation>
    </message>
    <message>
        <source>Note:</source>
        <translation>备注：</translation>
    </message>
    <message>
        <source>Approve</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>World</source>
        <translation>世界</translation>
    </message>
    <message>
        <source>%1: value</source>
        <translation>%1：价值</translation>
    </message>
    <message>
        <source>HV</source>
        <translation>HV</translation>
    </message>
    <message>
        <source>Penalty</source>
        <translation>惩罚</translation>
    </message>
    <message>
        <source>Δ value</source>
        <translation>Δ 价值</translation>
    </message>
    <message>
        <source>Mean value</source>
        <translation>平均价值</translation>
    </message>
    <message>
        <source>Both values are under the project&apos;s replay configuration: %1.</source>
        <translation>两个值均基于项目的重放配置：%1。</translation>
    </message>
    <message>
        <source>Values under the replay settings of the workbench (no project is open).</source>
        <translation>这些值基于工作台的重放设置（未打开项目）。</translation>
    </message>
    <message>
        <source>%1 and %2 were replayed with different W, λ, β grids or valuations; their values are not directly comparable.</source>
        <translation>%1 与 %2 使用了不同的 W、λ、β 网格或估值方式进行重放；它们的价值不能直接比较。</translation>
    </message>
    <message>
        <source>imagined completions</source>
        <translation>想象补全</translation>
    </message>
    <message>
        <source>revealed history</source>
        <translation>已揭示历史</translation>
    </message>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>Valuation: &lt;b&gt;%1&lt;/b&gt; (the values above).</source>
        <translation>估值方式：&lt;b&gt;%1&lt;/b&gt;（即上方的值）。</translation>
    </message>
    <message>
        <source>%1: revealed history %2, imagined completions (C %3) %4.</source>
        <translation>%1：已揭示历史 %2，想象补全（C %3）%4。</translation>
    </message>
    <message>
        <source>%1: revealed history %2, imagined completions %3.</source>
        <translation>%1：已揭示历史 %2，想象补全 %3。</translation>
    </message>
    <message>
        <source>— : nothing stored under %1 yet (a dream stores both numbers for the deployed version and its proposal).</source>
        <translation>—：%1 下尚未保存任何值（梦境推演会为已部署版本及其提案保存这两个数值）。</translation>
    </message>
    <message>
        <source>Mean value (%1)</source>
        <translation>平均价值（%1）</translation>
    </message>
    <message>
        <source>%1 leads %2 by %3</source>
        <comment>candidate leads deployed by lead</comment>
        <translation>%1 比 %2 高出 %3</translation>
    </message>
    <message>
        <source>%1 has no value: the lead of %2 was not measured against the noise</source>
        <translation>%1 无值：%2 的领先幅度未与噪声比较</translation>
    </message>
    <message>
        <source>%1; the two could not both be valued under the second completion seed → not proposed</source>
        <translation>%1；在第二个补全种子下未能为两者都估值 → 不予提议</translation>
    </message>
    <message>
        <source>beats the noise, proposed</source>
        <translation>超出噪声，予以提议</translation>
    </message>
    <message>
        <source>inside the noise, not proposed</source>
        <translation>在噪声范围内，不予提议</translation>
    </message>
    <message>
        <source>does not hold under the second seed, not proposed</source>
        <translation>在第二个种子下不成立，不予提议</translation>
    </message>
    <message>
        <source>%1; noise %2 (how far %3 moved between two completion seeds); lead under the second seed %4 → %5</source>
        <comment>lead; noise (how far the deployed version moved between two seeds); the lead under the second seed → verdict</comment>
        <translation>%1；噪声 %2（%3 在两个补全种子之间的变动幅度）；第二个种子下的领先幅度 %4 → %5</translation>
    </message>
    <message>
        <source>&lt;b&gt;The dream&apos;s noise check:&lt;/b&gt; %1.</source>
        <translation>&lt;b&gt;梦境推演的噪声检验：&lt;/b&gt;%1。</translation>
    </message>
    <message>
        <source>%1 and %2 valued again over completions drawn with a second seed (%3); a candidate is proposed only when its lead is larger than the deployed version&apos;s change between the seeds and holds under the second seed.</source>
        <translation>在用第二个种子（%3）抽取的补全上重新为 %1 和 %2 估值；只有当候选的领先幅度大于已部署版本在两个种子之间的变动、且在第二个种子下仍然成立时，才会提议该候选。</translation>
    </message>
</context>
<context>
    <name>dreamrsi::BehaviourGridView</name>
    <message>
        <source>%1 (the same for every cell)</source>
        <translation>%1（所有单元格相同）</translation>
    </message>
    <message>
        <source>best score</source>
        <translation>最佳分数</translation>
    </message>
    <message>
        <source>%1 of %2 cells · cells per bin, coloured by the bin&apos;s best score</source>
        <translation>%2 个单元中的 %1 个 · 每箱单元数，按箱内最佳分数着色</translation>
    </message>
    <message>
        <source>A numeric metric the cells carry (their payload&apos;s metrics)</source>
        <translation>单元携带的数值指标（其载荷中的 metrics）</translation>
    </message>
    <message>
        <source>Bins along this axis</source>
        <translation>此轴上的箱数</translation>
    </message>
    <message>
        <source>Creation order</source>
        <translation>创建顺序</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>代数</translation>
    </message>
    <message>
        <source>What the slider runs over</source>
        <translation>滑块所遍历的量</translation>
    </message>
    <message>
        <source>Fill the grid with the cells made up to here</source>
        <translation>用截至此处产生的单元填充网格</translation>
    </message>
    <message>
        <source>x:</source>
        <translation>x：</translation>
    </message>
    <message>
        <source>y:</source>
        <translation>y：</translation>
    </message>
    <message>
        <source>No tree open</source>
        <translation>未打开树</translation>
    </message>
    <message>
        <source>The cells of this tree carry no numeric metrics: a behaviour grid needs two.</source>
        <translation>此树的单元没有数值指标：行为网格需要两个。</translation>
    </message>
    <message>
        <source>The cells of this tree carry one numeric metric (%1): a behaviour grid needs two.</source>
        <translation>此树的单元只有一个数值指标（%1）：行为网格需要两个。</translation>
    </message>
    <message numerus="yes">
        <source>up to generation %1: %n cell(s)</source>
        <translation>
            <numerusform>截至第 %1 代：%n 个单元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>up to seq %1: %n cell(s)</source>
        <translation>
            <numerusform>截至 seq %1：%n 个单元</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source> · %n without both metrics</source>
        <translation>
            <numerusform>· %n 个缺少两个指标之一</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 in [%2, %3), %4 in [%5, %6)</source>
        <translation>%1 ∈ [%2, %3)，%4 ∈ [%5, %6)</translation>
    </message>
    <message numerus="yes">
        <source>%n cell(s)</source>
        <translation>
            <numerusform>%n 个单元</numerusform>
        </translation>
    </message>
    <message>
        <source>best %1 (%2)</source>
        <translation>最佳 %1（%2）</translation>
    </message>
    <message numerus="yes">
        <source>  … and %n more</source>
        <translation>
            <numerusform>…… 另有 %n 个</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::CellTableModel</name>
    <message>
        <source>—</source>
        <translation>—</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Id</source>
        <translation>编号</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Seq</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>Tests</source>
        <translation>测试</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message numerus="yes">
        <source>%n re-evaluation(s), %1 failed</source>
        <translation>
            <numerusform>重新评估 %n 次，%1 次失败</numerusform>
        </translation>
    </message>
    <message>
        <source>mean %1, sd %2</source>
        <translation>均值 %1，标准差 %2</translation>
    </message>
    <message>
        <source>95 % interval [%1, %2]</source>
        <translation>95 % 区间 [%1, %2]</translation>
    </message>
    <message>
        <source>Lucky: the recorded score lies above the interval</source>
        <translation>侥幸：记录的分数高于该区间</translation>
    </message>
    <message>
        <source>failed ×%1</source>
        <translation>失败 ×%1</translation>
    </message>
    <message>
        <source>%1 ± %2</source>
        <translation>%1 ± %2</translation>
    </message>
    <message>
        <source>Mean ± 95 %</source>
        <translation>均值 ± 95 %</translation>
    </message>
</context>
<context>
    <name>dreamrsi::CellsPage</name>
    <message>
        <source>Filter cells (id, tag, outcome, error…)</source>
        <translation>筛选单元（编号、标签、结果、错误…）</translation>
    </message>
    <message>
        <source>All columns</source>
        <translation>所有列</translation>
    </message>
    <message>
        <source>No tree open. Open a tree file (Ctrl+O) or drop one here.</source>
        <translation>没有打开的树。请打开树文件（Ctrl+O）或将文件拖放到此处。</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ComparePage</name>
    <message>
        <source>Add Project…</source>
        <translation>添加项目…</translation>
    </message>
    <message>
        <source>Add Run Folder…</source>
        <translation>添加运行文件夹…</translation>
    </message>
    <message>
        <source>Add Tree or Database…</source>
        <translation>添加树文件或数据库…</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>A project&apos;s iterations, one after another, as one run</source>
        <translation>项目的各次迭代依次相连，作为一次运行</translation>
    </message>
    <message>
        <source>An OpenEvolve output, checkpoint or db folder</source>
        <translation>OpenEvolve 的输出、检查点或 db 文件夹</translation>
    </message>
    <message>
        <source>A tree file, or a ShinkaEvolve database</source>
        <translation>树文件或 ShinkaEvolve 数据库</translation>
    </message>
    <message>
        <source>Agent calls</source>
        <translation>智能体调用</translation>
    </message>
    <message>
        <source>Cost (USD)</source>
        <translation>成本（美元）</translation>
    </message>
    <message>
        <source>Elapsed time</source>
        <translation>耗时</translation>
    </message>
    <message>
        <source>score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>The metric that scores cells; empty for their score</source>
        <translation>为单元评分的指标；留空则用其得分</translation>
    </message>
    <message>
        <source>Against:</source>
        <translation>横轴：</translation>
    </message>
    <message>
        <source>Score by:</source>
        <translation>评分依据：</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Source</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>Iterations</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Sources with the same label are seeds of one setting: drawn as their mean with a 95 % band</source>
        <translation>标签相同的来源是同一设置的不同种子：绘制其均值及 95% 置信带</translation>
    </message>
    <message>
        <source>Iterations are ids A-B (both included) or one id; empty for all.</source>
        <translation>迭代为编号 A-B（含两端）或单个编号；留空表示全部。</translation>
    </message>
    <message>
        <source>Empty: the source&apos;s own name (%1)</source>
        <translation>留空：来源自身名称（%1）</translation>
    </message>
    <message>
        <source>project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>tree file</source>
        <translation>树文件</translation>
    </message>
    <message>
        <source>Iteration ids A-B (both included); empty for all</source>
        <translation>迭代编号 A-B（含两端）；留空表示全部</translation>
    </message>
    <message numerus="yes">
        <source>Reading %n source(s)…</source>
        <translation>
            <numerusform>正在读取 %n 个来源…</numerusform>
        </translation>
    </message>
    <message>
        <source>Cannot read: %1</source>
        <translation>无法读取：%1</translation>
    </message>
    <message>
        <source>%1: no timestamps recorded, no time curve</source>
        <translation>%1：未记录时间戳，无时间曲线</translation>
    </message>
    <message>
        <source>Add projects, runs or tree files to compare; give seeds of one setting the same label.</source>
        <translation>添加要比较的项目、运行或树文件；同一设置的种子请用相同标签。</translation>
    </message>
    <message>
        <source>Add Projects to Compare</source>
        <translation>添加要比较的项目</translation>
    </message>
    <message>
        <source>Projects (*.dreamrsi);;All files (*)</source>
        <translation>项目 (*.dreamrsi);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Add an OpenEvolve Run to Compare</source>
        <translation>添加要比较的 OpenEvolve 运行</translation>
    </message>
    <message>
        <source>Add Tree Files or ShinkaEvolve Databases to Compare</source>
        <translation>添加要比较的树文件或 ShinkaEvolve 数据库</translation>
    </message>
    <message>
        <source>Trees and databases (*.json *.sqlite *.sqlite3 *.db);;All files (*)</source>
        <translation>树文件与数据库 (*.json *.sqlite *.sqlite3 *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>%1: a population snapshot: %2 holds the %3 programs that survived iterations 0-%4, not every program the run made; drawn against the iteration each was found, not calls</source>
        <translation>%1：种群快照：%2 只包含在迭代 0-%4 中存活下来的 %3 个程序，而非本次运行产生的全部程序；按每个程序被发现时的迭代绘制，而非按调用次数</translation>
    </message>
    <message>
        <source>%1: a population snapshot: %2 holds the %3 programs that survived iterations 0-%4, and not all of them record the iteration they were found, so it is not drawn by calls.</source>
        <translation>%1：种群快照：%2 只包含在迭代 0-%4 中存活下来的 %3 个程序，且并非每个程序都记录了被发现时的迭代，因此不按调用次数绘制。</translation>
    </message>
    <message>
        <source>No db/ with the run&apos;s full history beside it (none at %1).</source>
        <translation>旁边没有包含本次运行完整历史的 db/（%1 处没有）。</translation>
    </message>
    <message>
        <source>Add %1 instead: every program of the run.</source>
        <translation>请改为添加 %1：其中包含本次运行的每个程序。</translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>⚠ These sources are of different tasks, whose scores are on different scales: %1. Compare one task at a time.</source>
        <translation>⚠ 这些来源属于不同的任务，其分数的尺度各不相同：%1。请一次只比较一个任务。</translation>
    </message>
    <message>
        <source>%1: no cost recorded (none above 0), no USD curve</source>
        <translation>%1：未记录成本（没有大于 0 的成本），无美元曲线</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ComparePlot</name>
    <message>
        <source>%1 (n = %2 seeds)</source>
        <translation>%1（n = %2 个种子）</translation>
    </message>
    <message>
        <source>Best score so far</source>
        <translation>迄今最佳得分</translation>
    </message>
    <message>
        <source>Best score</source>
        <translation>最佳得分</translation>
    </message>
    <message>
        <source>%1: no cost recorded</source>
        <translation>%1：未记录成本</translation>
    </message>
    <message>
        <source>%1: no timestamps recorded</source>
        <translation>%1：未记录时间戳</translation>
    </message>
    <message>
        <source>Label</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Seeds</source>
        <translation>种子数</translation>
    </message>
    <message>
        <source>Final best</source>
        <translation>最终最佳</translation>
    </message>
    <message>
        <source>Up to</source>
        <translation>截至</translation>
    </message>
    <message>
        <source>Sources</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>%1 (not drawn)</source>
        <translation>%1（未绘制）</translation>
    </message>
    <message>
        <source>%1 (n = %2 seeds; population snapshots by iteration found: %3)</source>
        <translation>%1（n = %2 个种子；其中 %3 个为种群快照，按发现时的迭代绘制）</translation>
    </message>
    <message>
        <source>%1 (population snapshot, by iteration found)</source>
        <translation>%1（种群快照，按发现时的迭代绘制）</translation>
    </message>
    <message>
        <source>%1: population snapshot, no iteration found</source>
        <translation>%1：种群快照，未记录发现时的迭代</translation>
    </message>
    <message>
        <source>%1 (snapshot)</source>
        <translation>%1（快照）</translation>
    </message>
    <message>
        <source>%1 (population snapshot: %2 survivors of iterations 0-%3, by iteration found)</source>
        <translation>%1（种群快照：迭代 0-%3 中存活的 %2 个程序，按发现时的迭代绘制）</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ConnectDialog</name>
    <message>
        <source>The %1 holds a space or a character outside printable ASCII.</source>
        <translation>%1中含有空格或可打印 ASCII 以外的字符。</translation>
    </message>
    <message>
        <source>The %1 has %2 characters; a server&apos;s token has at least %3.</source>
        <translation>%1只有 %2 个字符；服务器的令牌至少有 %3 个字符。</translation>
    </message>
    <message>
        <source>Connect to Server</source>
        <translation>连接服务器</translation>
    </message>
    <message>
        <source>A project served by &lt;code&gt;dreamrsi serve&lt;/code&gt; on this machine or, through &lt;code&gt;ssh -N -L 8765:127.0.0.1:8765 you@host&lt;/code&gt;, on another one. It opens read-only and its rounds are followed live.</source>
        <translation>由本机上的 &lt;code&gt;dreamrsi serve&lt;/code&gt; 提供的项目，或经由 &lt;code&gt;ssh -N -L 8765:127.0.0.1:8765 you@host&lt;/code&gt; 由另一台机器提供的项目。它以只读方式打开，其轮次被实时跟随。</translation>
    </message>
    <message>
        <source>&amp;URL:</source>
        <translation>网址(&amp;U)：</translation>
    </message>
    <message>
        <source>the token serve printed or read from --token-file</source>
        <translation>serve 打印的令牌，或其从 --token-file 读取的令牌</translation>
    </message>
    <message>
        <source>&amp;Token:</source>
        <translation>令牌(&amp;T)：</translation>
    </message>
    <message>
        <source>optional: --steering-token-file&apos;s, to steer and approve</source>
        <translation>可选：--steering-token-file 的令牌，用于引导和批准</translation>
    </message>
    <message>
        <source>&amp;Steering token:</source>
        <translation>引导令牌(&amp;S)：</translation>
    </message>
    <message>
        <source>&amp;Remember in the system keychain</source>
        <translation>记住在系统钥匙串中(&amp;R)</translation>
    </message>
    <message>
        <source>Looking for the system keychain…</source>
        <translation>正在查找系统钥匙串…</translation>
    </message>
    <message>
        <source>&amp;Connect</source>
        <translation>连接(&amp;C)</translation>
    </message>
    <message>
        <source>Without the box ticked, the tokens are kept for this session only.</source>
        <translation>不勾选此框时，令牌仅在本次会话中保留。</translation>
    </message>
    <message>
        <source>No system keychain (secret service) answers here (%1): the tokens are kept for this session only.</source>
        <translation>此处没有系统钥匙串（secret service）应答（%1）：令牌仅在本次会话中保留。</translation>
    </message>
    <message>
        <source>no answer within 5 s</source>
        <translation>5 秒内无应答</translation>
    </message>
    <message>
        <source>Give the server&apos;s URL, as serve printed it (http://127.0.0.1:8765/).</source>
        <translation>请给出服务器的网址，即 serve 打印的网址（http://127.0.0.1:8765/）。</translation>
    </message>
    <message>
        <source>Not a served project&apos;s URL: %1</source>
        <translation>不是所提供项目的网址：%1</translation>
    </message>
    <message>
        <source>Give the token: serve printed it at its start, or reads it from --token-file.</source>
        <translation>请给出令牌：serve 在启动时打印了它，或从 --token-file 读取它。</translation>
    </message>
    <message>
        <source>token</source>
        <translation>令牌</translation>
    </message>
    <message>
        <source>steering token</source>
        <translation>引导令牌</translation>
    </message>
    <message>
        <source>The steering token is the read token: a server&apos;s two tokens differ.</source>
        <translation>引导令牌与读取令牌相同：服务器的两个令牌必须不同。</translation>
    </message>
</context>
<context>
    <name>dreamrsi::DemoProject</name>
    <message>
        <source>Cannot read the bundled demo project %1</source>
        <translation>无法读取内置的演示项目 %1</translation>
    </message>
    <message>
        <source>Cannot remove %1</source>
        <translation>无法删除 %1</translation>
    </message>
    <message>
        <source>Cannot copy the demo project to %1</source>
        <translation>无法将演示项目复制到 %1</translation>
    </message>
</context>
<context>
    <name>dreamrsi::DemoReset</name>
    <message>
        <source>Reset &amp;Demo…</source>
        <translation>重置演示(&amp;D)…</translation>
    </message>
    <message>
        <source>Replace the demo project&apos;s private copy with the bundled demo, discarding your changes to it</source>
        <translation>用内置的演示替换演示项目的私有副本，并放弃您对它所做的更改</translation>
    </message>
    <message>
        <source>Reset the demo project?</source>
        <translation>重置演示项目？</translation>
    </message>
    <message>
        <source>This replaces your copy of the demo project with the bundled demo: the rounds, policy versions, replays and approvals you added to it are lost.</source>
        <translation>这将用内置的演示替换您的演示项目副本：您在其中添加的轮次、策略版本、重放和批准都将丢失。</translation>
    </message>
    <message>
        <source>Reset Demo</source>
        <translation>重置演示</translation>
    </message>
    <message>
        <source>Resetting the demo project…</source>
        <translation>正在重置演示项目…</translation>
    </message>
    <message>
        <source>Another process (pid %1) writes the demo project</source>
        <translation>另一个进程（pid %1）正在写入演示项目</translation>
    </message>
    <message>
        <source>Cannot reset the demo project</source>
        <translation>无法重置演示项目</translation>
    </message>
    <message>
        <source>The demo project is the bundled demo again</source>
        <translation>演示项目已恢复为内置的演示</translation>
    </message>
</context>
<context>
    <name>dreamrsi::DiscoveryPage</name>
    <message>
        <source>Find cells by id or tag</source>
        <translation>按编号或标签查找单元</translation>
    </message>
    <message numerus="yes">
        <source>%n match(es)</source>
        <translation>
            <numerusform>%n 个匹配</numerusform>
        </translation>
    </message>
    <message>
        <source>Discovery tree</source>
        <translation>发现树</translation>
    </message>
    <message>
        <source>Show &amp;imagined cells</source>
        <translation>显示想象单元(&amp;I)</translation>
    </message>
    <message>
        <source>Draw one imagined completion of this history world around its revealed cells: every cell of its grid the deployed policy did not reveal, drawn from the world model fitted over the project&apos;s replay worlds (as a dream values versions).</source>
        <translation>围绕此历史世界已揭示的单元，抽取它的一个想象补全：网格中已部署策略未揭示的每个单元，都从基于项目重放世界拟合的世界模型中抽取（与梦境推演评估版本的方式相同）。</translation>
    </message>
    <message>
        <source>completion k = </source>
        <translation>补全 k = </translation>
    </message>
    <message>
        <source>Which completion k of the project&apos;s C to draw</source>
        <translation>要抽取项目 C 个补全中的第几个（k）</translation>
    </message>
    <message>
        <source>seed </source>
        <translation>种子 </translation>
    </message>
    <message>
        <source>The dream&apos;s seed the completions are drawn with (a dream&apos;s --seed; replays use 0)</source>
        <translation>抽取补全所用的梦境推演种子（即梦境推演的 --seed；重放使用 0）</translation>
    </message>
    <message>
        <source> of %1</source>
        <translation> / %1</translation>
    </message>
    <message>
        <source>Imagined cells are drawn for the project&apos;s history worlds (its finished iterations) only.</source>
        <translation>仅为项目的历史世界（其已完成的迭代）抽取想象单元。</translation>
    </message>
    <message>
        <source>not a history world of the project</source>
        <translation>不是项目的历史世界</translation>
    </message>
    <message>
        <source>drawing completion %1…</source>
        <translation>正在抽取补全 %1…</translation>
    </message>
    <message>
        <source>no completion</source>
        <translation>无补全</translation>
    </message>
    <message numerus="yes">
        <source>%n imagined cell(s): completion k = %1 of world j = %2, seed %3</source>
        <translation>
            <numerusform>%n 个想象单元：世界 j = %2 的补全 k = %1，种子 %3</numerusform>
        </translation>
    </message>
    <message>
        <source>cannot draw imagined cells: %1</source>
        <translation>无法抽取想象单元：%1</translation>
    </message>
    <message>
        <source>%1, imagined completion %2</source>
        <translation>%1，想象补全 %2</translation>
    </message>
    <message>
        <source>Branches</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>Genealogy</source>
        <translation>谱系</translation>
    </message>
    <message>
        <source>Islands</source>
        <translation>岛屿</translation>
    </message>
    <message>
        <source>Behaviour grid</source>
        <translation>行为网格</translation>
    </message>
    <message>
        <source>Branches: each branch a column, as rounds grow them. Genealogy: every program under its real parent, generations as rows (an imported run&apos;s default). Islands: the genealogy by island, with migrations between them. Behaviour grid: the cells binned by two metrics.</source>
        <translation>分支：每个分支一列，随轮次生长。谱系：每个程序位于其真实父程序之下，每代一行（导入运行的默认视图）。岛屿：按岛屿分组的谱系及其间的迁移。行为网格：按两个指标分箱的单元。</translation>
    </message>
    <message numerus="yes">
        <source>Laying out %Ln cell(s)…</source>
        <translation>
            <numerusform>正在布局 %Ln 个单元…</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
</context>
<context>
    <name>dreamrsi::DreamingDialog</name>
    <message>
        <source>Dreaming</source>
        <translation>梦境推演</translation>
    </message>
    <message>
        <source>Versions per dream, the deployed one included</source>
        <translation>每次梦境推演的版本数（含已部署版本）</translation>
    </message>
    <message>
        <source>Built-in improver (offline)</source>
        <translation>内置改进器（离线）</translation>
    </message>
    <message>
        <source>OpenAI-compatible</source>
        <translation>OpenAI 兼容</translation>
    </message>
    <message>
        <source>Anthropic</source>
        <translation>Anthropic</translation>
    </message>
    <message>
        <source>Gemini</source>
        <translation>Gemini</translation>
    </message>
    <message>
        <source>Command</source>
        <translation>命令</translation>
    </message>
    <message>
        <source>provider default</source>
        <translation>提供方默认值</translation>
    </message>
    <message>
        <source>&amp;Versions:</source>
        <translation>版本数(&amp;V)：</translation>
    </message>
    <message>
        <source>&amp;Agent:</source>
        <translation>智能体(&amp;A)：</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>&amp;Base URL:</source>
        <translation>基础 URL(&amp;B)：</translation>
    </message>
    <message>
        <source>&amp;Seed:</source>
        <translation>种子(&amp;S)：</translation>
    </message>
    <message>
        <source>Replay:</source>
        <translation>重放：</translation>
    </message>
    <message>
        <source>%v of %m versions</source>
        <translation>%v / %m 个版本</translation>
    </message>
    <message>
        <source>#</source>
        <translation>#</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Written by</source>
        <translation>编写者</translation>
    </message>
    <message>
        <source>Mean value</source>
        <translation>平均价值</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Select a version to see its diff against its parent.</source>
        <translation>选择一个版本以查看它与父版本的差异。</translation>
    </message>
    <message>
        <source>&amp;Start Dreaming</source>
        <translation>开始梦境推演(&amp;S)</translation>
    </message>
    <message>
        <source>&amp;Cancel</source>
        <translation>取消(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Review Proposal…</source>
        <translation>审阅提案(&amp;R)…</translation>
    </message>
    <message>
        <source>Open a project first: dreaming stores its versions and results there.</source>
        <translation>请先打开项目：梦境推演会将其版本和结果保存在项目中。</translation>
    </message>
    <message>
        <source>Dreaming: %1 versions over %2 worlds with %3</source>
        <translation>梦境推演：使用 %3 在 %2 个世界上生成 %1 个版本</translation>
    </message>
    <message>
        <source>Cancelling…</source>
        <translation>正在取消…</translation>
    </message>
    <message>
        <source>deployed</source>
        <translation>已部署</translation>
    </message>
    <message>
        <source>Dreaming stopped: %1</source>
        <translation>梦境推演已停止：%1</translation>
    </message>
    <message numerus="yes">
        <source>Dreaming cancelled after %n version(s).</source>
        <translation>
            <numerusform>梦境推演在生成 %n 个版本后已取消。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (proposed)</source>
        <translation>%1（提案）</translation>
    </message>
    <message>
        <source>Error: %1</source>
        <translation>错误：%1</translation>
    </message>
    <message>
        <source>(no script)</source>
        <translation>（无脚本）</translation>
    </message>
    <message>
        <source>(identical to %1)</source>
        <translation>（与 %1 相同）</translation>
    </message>
    <message>
        <source>Response:</source>
        <translation>响应：</translation>
    </message>
    <message>
        <source>%1 (the project&apos;s replay configuration)</source>
        <translation>%1（项目的重放配置）</translation>
    </message>
    <message>
        <source>the project&apos;s replay configuration</source>
        <translation>项目的重放配置</translation>
    </message>
    <message>
        <source>The project is open read-only while another process writes it; dreaming cannot store its versions.</source>
        <translation>另一个进程正在写入，项目以只读方式打开；梦境推演无法保存其版本。</translation>
    </message>
    <message>
        <source>the project&apos;s valuation</source>
        <translation>项目的估值方式</translation>
    </message>
    <message>
        <source>Valuation:</source>
        <translation>估值方式：</translation>
    </message>
    <message>
        <source>Revealed history</source>
        <translation>已揭示历史</translation>
    </message>
    <message>
        <source>Imagined completions</source>
        <translation>想象补全</translation>
    </message>
    <message>
        <source>The value the dream judges the version by (its valuation)</source>
        <translation>梦境推演评判该版本所依据的价值（其估值方式）</translation>
    </message>
    <message>
        <source>Mean value over the history worlds as the deployed policies revealed them</source>
        <translation>在已部署策略所揭示的历史世界上的平均价值</translation>
    </message>
    <message>
        <source>Mean value over the imagined completions of the history worlds</source>
        <translation>在历史世界的想象补全上的平均价值</translation>
    </message>
    <message numerus="yes">
        <source>%n approximate world(s) left out; Settings ▸ Include approximate worlds dreams in them too.</source>
        <translation>
            <numerusform>已排除 %n 个近似世界；启用 设置 ▸ 包含近似世界 后，梦境推演也会在其中进行。</numerusform>
        </translation>
    </message>
    <message>
        <source>revealed history: each version&apos;s mean value over the history worlds as the deployed policies revealed them</source>
        <translation>已揭示历史：每个版本在已部署策略所揭示的历史世界上的平均价值</translation>
    </message>
    <message>
        <source>imagined completions: each version&apos;s mean value over C = %1 completions of every history world drawn from a model of the history</source>
        <translation>想象补全：每个版本在每个历史世界的 C = %1 个补全上的平均价值，补全从基于历史拟合的模型中抽取</translation>
    </message>
    <message>
        <source>%1 (seed %2)</source>
        <translation>%1（种子 %2）</translation>
    </message>
    <message>
        <source>No candidates yet.</source>
        <translation>尚无候选。</translation>
    </message>
    <message>
        <source>&amp;All versions</source>
        <translation>全部版本(&amp;A)</translation>
    </message>
    <message>
        <source>List the candidates of every version of the dream, not only the selected one&apos;s</source>
        <translation>列出本次梦境推演中每个版本的候选，而不仅是所选版本的</translation>
    </message>
    <message>
        <source>Parent</source>
        <translation>父版本</translation>
    </message>
    <message>
        <source>Kind</source>
        <translation>类型</translation>
    </message>
    <message>
        <source>What changed</source>
        <translation>改动</translation>
    </message>
    <message>
        <source>Why</source>
        <translation>原因</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>价值</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>The candidate&apos;s place in the dream</source>
        <translation>候选在本次梦境推演中的序号</translation>
    </message>
    <message>
        <source>The version the candidate was derived from</source>
        <translation>候选所派生自的版本</translation>
    </message>
    <message>
        <source>learned: rules set from the history&apos;s statistics; proposal: a variant the history argues for; random: a random step</source>
        <translation>学习：由历史统计设定的规则；提议：历史所支持的变体；随机：一次随机步</translation>
    </message>
    <message>
        <source>Tunables changed against the parent</source>
        <translation>相对父版本改动的可调参数</translation>
    </message>
    <message>
        <source>Mean value under the dream&apos;s valuation; a behaviour is valued once</source>
        <translation>按本次梦境推演的估值方式得到的平均价值；同一行为只估值一次</translation>
    </message>
    <message>
        <source>Ca&amp;ndidates</source>
        <translation>候选(&amp;N)</translation>
    </message>
    <message>
        <source>&amp;Diff and Response</source>
        <translation>差异与回复(&amp;D)</translation>
    </message>
    <message>
        <source>No candidates.</source>
        <translation>没有候选。</translation>
    </message>
    <message>
        <source>%1 is the deployed version: it has no candidates.</source>
        <translation>%1 是已部署版本：它没有候选。</translation>
    </message>
    <message>
        <source>%1 was written without candidates (an agent writes the version itself).</source>
        <translation>%1 的编写未经过候选（由智能体直接编写该版本）。</translation>
    </message>
    <message>
        <source>%1, %2 (%3 %)</source>
        <comment>N candidates, D distinct behaviours (their share in percent)</comment>
        <translation>%1，%2（%3 %）</translation>
    </message>
    <message numerus="yes">
        <source>%n candidate(s)</source>
        <translation>
            <numerusform>%n 个候选</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n distinct behaviour(s)</source>
        <translation>
            <numerusform>%n 种不同行为</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>; %n changed nothing at the deployed β</source>
        <translation>
            <numerusform>；%n 个在部署 β 下毫无改变</numerusform>
        </translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>All versions: %1</source>
        <translation>全部版本：%1</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>学习</translation>
    </message>
    <message>
        <source>proposal</source>
        <translation>提议</translation>
    </message>
    <message>
        <source>random</source>
        <translation>随机</translation>
    </message>
    <message>
        <source>%1 %2 → %3</source>
        <comment>tunable: old value → new value</comment>
        <translation>%1 %2 → %3</translation>
    </message>
    <message>
        <source>kept: %1</source>
        <translation>保留：%1</translation>
    </message>
    <message>
        <source>kept</source>
        <translation>保留</translation>
    </message>
    <message>
        <source>same behaviour as candidate %1</source>
        <translation>与候选 %1 行为相同</translation>
    </message>
    <message>
        <source>same behaviour as a version</source>
        <translation>与某个版本行为相同</translation>
    </message>
    <message>
        <source>changes nothing at the deployed β</source>
        <translation>在部署 β 下毫无改变</translation>
    </message>
    <message>
        <source>not kept</source>
        <translation>未保留</translation>
    </message>
    <message>
        <source>learned tables</source>
        <translation>学习得到的表</translation>
    </message>
    <message>
        <source>nothing</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Nothing Better Found</source>
        <translation>未找到更好的版本</translation>
    </message>
    <message>
        <source>The dream found no version better than the deployed %1: there is nothing to approve. Select another version to review it anyway.</source>
        <translation>这次做梦没有找到比已部署的 %1 更好的版本：没有可批准的内容。仍可选择其他版本进行审阅。</translation>
    </message>
    <message>
        <source>%1 Approved</source>
        <translation>已批准 %1</translation>
    </message>
    <message>
        <source>You approved %1 from this dream: there is nothing more to review for it.</source>
        <translation>您已批准本次梦境推演中的 %1：无需再审阅。</translation>
    </message>
    <message>
        <source>Noise check: %1.</source>
        <translation>噪声检验：%1。</translation>
    </message>
    <message>
        <source>%1 (led; not proposed)</source>
        <translation>%1（领先；未提议）</translation>
    </message>
    <message>
        <source>Second completion seed of the noise check: %1</source>
        <translation>噪声检验的第二个补全种子：%1</translation>
    </message>
    <message>
        <source>&lt;b&gt;No version scored:&lt;/b&gt; nothing to propose.</source>
        <translation>&lt;b&gt;没有版本得到评分：&lt;/b&gt;没有可提议的内容。</translation>
    </message>
    <message>
        <source>Nothing better than %1.</source>
        <translation>没有比 %1 更好的版本。</translation>
    </message>
    <message>
        <source>Proposal: %1.</source>
        <translation>提案：%1。</translation>
    </message>
    <message>
        <source>No candidate led the deployed version.</source>
        <translation>没有候选领先于已部署版本。</translation>
    </message>
    <message>
        <source>the oracle valuation draws no completions: no noise to check</source>
        <translation>oracle 估值方式不抽取补全：没有可检验的噪声</translation>
    </message>
    <message>
        <source>the revealed history draws no completions: no noise to check</source>
        <translation>已揭示历史不抽取补全：没有可检验的噪声</translation>
    </message>
    <message>
        <source>the dream was cancelled before the noise check</source>
        <translation>梦境推演在噪声检验之前已取消</translation>
    </message>
    <message>
        <source>not checked against the noise</source>
        <translation>未经噪声检验</translation>
    </message>
    <message>
        <source>The deployed version %1 has no value (%2).</source>
        <translation>已部署版本 %1 无值（%2）。</translation>
    </message>
    <message>
        <source>%1 leads %2 by %3 (%4).</source>
        <comment>candidate leads deployed by lead (why there was no noise check)</comment>
        <translation>%1 比 %2 高出 %3（%4）。</translation>
    </message>
    <message>
        <source>the command line that answers the prompt on stdin</source>
        <translation>从标准输入读取提示并作答的命令行</translation>
    </message>
    <message>
        <source>&amp;Command:</source>
        <translation>命令(&amp;C)：</translation>
    </message>
    <message>
        <source>Cannot dream: %1</source>
        <translation>无法进行梦境推演：%1</translation>
    </message>
    <message>
        <source>Reading the project&apos;s worlds…</source>
        <translation>正在读取项目的世界…</translation>
    </message>
    <message>
        <source>Seeds the improver&apos;s steps and the imagined completions: values of dreams with different seeds are not comparable</source>
        <translation>为改进器的各步骤和想象补全提供种子：不同种子的梦境推演之间的值不可比较</translation>
    </message>
    <message>
        <source>Dream %1 · seed %2 · imagined valuation over C = %3 completions</source>
        <translation>梦境推演 %1 · 种子 %2 · 基于 C = %3 个补全的想象估值</translation>
    </message>
    <message>
        <source>Dream %1 · seed %2 · %3</source>
        <translation>梦境推演 %1 · 种子 %2 · %3</translation>
    </message>
    <message>
        <source>dream %1 (seed %2)</source>
        <translation>梦境推演 %1（种子 %2）</translation>
    </message>
    <message>
        <source>This dream&apos;s values are not comparable with those of %1 above: another seed or completion count draws other imagined completions. Compare versions within one dream.</source>
        <translation>此梦境推演的值不能与上方 %1 的值比较：不同的种子或补全数会抽取不同的想象补全。请在同一次梦境推演内比较版本。</translation>
    </message>
    <message>
        <source>dream %1, seed %2, C = %3</source>
        <translation>梦境推演 %1，种子 %2，C = %3</translation>
    </message>
    <message>
        <source>dream %1, seed %2</source>
        <translation>梦境推演 %1，种子 %2</translation>
    </message>
    <message>
        <source>Deployed %1: revealed history %2, imagined completions %3 (%4)</source>
        <translation>已部署 %1：已揭示历史 %2，想象补全 %3（%4）</translation>
    </message>
    <message>
        <source>Proposal %1: revealed history %2, imagined completions %3 (%4)</source>
        <translation>提案 %1：已揭示历史 %2，想象补全 %3（%4）</translation>
    </message>
    <message>
        <source>Nothing better than the deployed version %1 (mean value %2, %3): no proposal to approve.</source>
        <translation>没有优于已部署版本 %1 的版本（平均价值 %2，%3）：没有待批准的提案。</translation>
    </message>
    <message>
        <source>Proposed: %1 (mean value %2, %3)</source>
        <translation>提议：%1（平均价值 %2，%3）</translation>
    </message>
    <message>
        <source>&amp;Keep the hardest world</source>
        <translation>保住最难的世界(&amp;K)</translation>
    </message>
    <message>
        <source>Propose only a version that reaches, on its hardest history world at the deployment β, what the project&apos;s first approved version reaches on its own hardest world</source>
        <translation>只提议这样的版本：它在部署 β 下于自己最难的历史世界上达到的水平，不低于项目第一个获批版本在其自身最难世界上达到的水平</translation>
    </message>
    <message>
        <source>Floor:</source>
        <translation>底线：</translation>
    </message>
    <message>
        <source>the floor (first approved)</source>
        <translation>底线（首个获批版本）</translation>
    </message>
    <message>
        <source>Floor check: %1.</source>
        <translation>底线检查：%1。</translation>
    </message>
    <message>
        <source>%1 (below the floor; not proposed)</source>
        <translation>%1（低于底线；未提议）</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1 reaches no attainment on these worlds: no floor to keep</source>
        <translation>%1 在这些世界上没有达成度：没有可守的底线</translation>
    </message>
    <message>
        <source>the floor %1 (what %2 reaches on its hardest history world at β %3)</source>
        <translation>底线 %1（%2 在 β %3 下于其最难历史世界上的达成度）</translation>
    </message>
    <message>
        <source>the deployed version reaches %1 on its hardest world, below %2, and no version keeps it</source>
        <translation>已部署版本在其最难世界上达到 %1，低于%2，且没有版本守住它</translation>
    </message>
    <message>
        <source>the deployed version reaches %1 on its hardest world, below %2: %3 keeps it and is proposed in its place</source>
        <translation>已部署版本在其最难世界上达到 %1，低于%2：%3 守住了它，被提议取而代之</translation>
    </message>
    <message>
        <source>%1 reaches %2 on its hardest world and keeps %3</source>
        <translation>%1 在其最难世界上达到 %2，守住了%3</translation>
    </message>
    <message>
        <source>%1 reaches %2 on its hardest world, below %3: not proposed</source>
        <translation>%1 在其最难世界上达到 %2，低于%3：未提议</translation>
    </message>
    <message>
        <source>%1 reaches %2 on its hardest world, below %3: not proposed; %4 keeps it</source>
        <translation>%1 在其最难世界上达到 %2，低于%3：未提议；%4 守住了它</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ExportDialog</name>
    <message>
        <source>Single column (85 × 60 mm)</source>
        <translation>单栏（85 × 60 毫米）</translation>
    </message>
    <message>
        <source>Export Figure — %1</source>
        <translation>导出图表 — %1</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>File (.pdf, .svg, .png):</source>
        <translation>文件（.pdf、.svg、.png）：</translation>
    </message>
    <message>
        <source>Custom</source>
        <translation>自定义</translation>
    </message>
    <message>
        <source>Preset:</source>
        <translation>预设：</translation>
    </message>
    <message>
        <source> mm</source>
        <translation> 毫米</translation>
    </message>
    <message>
        <source>Width:</source>
        <translation>宽度：</translation>
    </message>
    <message>
        <source>Height:</source>
        <translation>高度：</translation>
    </message>
    <message>
        <source> dpi</source>
        <translation> dpi</translation>
    </message>
    <message>
        <source>Resolution of PNG files; PDF and SVG stay vector graphics.</source>
        <translation>PNG 文件的分辨率；PDF 和 SVG 保持矢量图形。</translation>
    </message>
    <message>
        <source>Resolution:</source>
        <translation>分辨率：</translation>
    </message>
    <message>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <source>Export Figure</source>
        <translation>导出图表</translation>
    </message>
    <message>
        <source>PDF (*.pdf);;SVG (*.svg);;PNG image (*.png)</source>
        <translation>PDF (*.pdf);;SVG (*.svg);;PNG 图像 (*.png)</translation>
    </message>
    <message>
        <source>The file name must end in .pdf, .svg or .png.</source>
        <translation>文件名必须以 .pdf、.svg 或 .png 结尾。</translation>
    </message>
    <message>
        <source>Double column (175 × 90 mm)</source>
        <translation>双栏（175 × 90 毫米）</translation>
    </message>
    <message>
        <source>Slide 16:9 (160 × 90 mm, as Beamer)</source>
        <translation>幻灯片 16:9（160 × 90 毫米，同 Beamer）</translation>
    </message>
    <message>
        <source>Too large to preview.</source>
        <translation>尺寸过大，无法预览。</translation>
    </message>
    <message>
        <source>Preview at %1 × %2 mm (shown at %3 %)</source>
        <translation>预览 %1 × %2 毫米（显示比例 %3 %）</translation>
    </message>
    <message>
        <source>Also write the numbers behind the figure (CSV, same name)</source>
        <translation>同时写出图背后的数据（CSV，同名）</translation>
    </message>
    <message>
        <source>Points, staircases, curves, cells or progress steps, one row per plotted point, with a header naming each column, to re-plot them with other tools.</source>
        <translation>点、阶梯、曲线、单元或进展步骤，每个绘制点一行，表头说明每一列，便于用其他工具重新绘图。</translation>
    </message>
</context>
<context>
    <name>dreamrsi::FailGlyphs</name>
    <message>
        <source>Success</source>
        <translation>成功</translation>
    </message>
    <message>
        <source>Compile error</source>
        <translation>编译错误</translation>
    </message>
    <message>
        <source>Runtime error</source>
        <translation>运行时错误</translation>
    </message>
    <message>
        <source>Timeout</source>
        <translation>超时</translation>
    </message>
    <message>
        <source>Incorrect result</source>
        <translation>结果不正确</translation>
    </message>
    <message>
        <source>Resource limit</source>
        <translation>资源超限</translation>
    </message>
    <message>
        <source>Environment failure</source>
        <translation>环境故障</translation>
    </message>
    <message>
        <source>Agent failure</source>
        <translation>智能体失败</translation>
    </message>
</context>
<context>
    <name>dreamrsi::FigureExport</name>
    <message>
        <source>Unknown figure format of %1: use .png, .pdf or .svg.</source>
        <translation>%1 的图表格式未知：请使用 .png、.pdf 或 .svg。</translation>
    </message>
    <message>
        <source>Figure size must be between 10 and 2000 mm.</source>
        <translation>图表尺寸必须在 10 到 2000 毫米之间。</translation>
    </message>
    <message>
        <source>Resolution must be between 36 and 2400 dpi.</source>
        <translation>分辨率必须在 36 到 2400 dpi 之间。</translation>
    </message>
    <message>
        <source>Not enough memory for a %1×%2 image.</source>
        <translation>内存不足，无法创建 %1×%2 的图像。</translation>
    </message>
    <message>
        <source>Could not write %1.</source>
        <translation>无法写入 %1。</translation>
    </message>
    <message>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
</context>
<context>
    <name>dreamrsi::FrontierPage</name>
    <message>
        <source>World:</source>
        <translation>世界：</translation>
    </message>
    <message>
        <source>Policy versions:</source>
        <translation>策略版本：</translation>
    </message>
    <message>
        <source>Replay Checked Versions</source>
        <translation>重放选中的版本</translation>
    </message>
    <message>
        <source>Run the β sweep of every checked version in every open world</source>
        <translation>在每个已打开的世界中对每个选中的版本运行 β 扫描</translation>
    </message>
    <message>
        <source>Mean over all worlds</source>
        <translation>所有世界的平均</translation>
    </message>
    <message>
        <source>Not replayed yet</source>
        <translation>尚未重放</translation>
    </message>
    <message>
        <source>Open tree files or a project to have worlds to replay in.</source>
        <translation>请打开树文件或项目，以便有可供重放的世界。</translation>
    </message>
    <message>
        <source>Check versions and press “Replay Checked Versions” to compute their frontiers.</source>
        <translation>勾选版本并点击“重放选中的版本”以计算其前沿。</translation>
    </message>
    <message>
        <source>Frontiers under the project&apos;s replay configuration: %1. Results under other configurations are listed on the Policies tab, not drawn here.</source>
        <translation>基于项目重放配置的前沿：%1。其他配置下的结果列在“策略”标签页中，不在此处绘制。</translation>
    </message>
    <message>
        <source>Frontiers</source>
        <translation>前沿</translation>
    </message>
    <message>
        <source>Attainment axis from 0 to 1</source>
        <translation>达成度轴从 0 到 1</translation>
    </message>
    <message>
        <source>Unchecked, the attainment axis fits the points drawn, so frontiers close to 1 stay apart</source>
        <translation>不勾选时，达成度轴贴合所绘制的点，使接近 1 的各条前沿彼此分开</translation>
    </message>
    <message>
        <source>%1 (approximate)</source>
        <translation>%1（近似）</translation>
    </message>
    <message>
        <source>Shaded: the hypervolume each frontier dominates, in its version&apos;s colour (the largest behind). Filled dots: non-dominated β points.</source>
        <translation>阴影：每条前沿所支配的超体积，使用其版本的颜色（最大的位于最后面）。实心点：非支配的 β 点。</translation>
    </message>
    <message numerus="yes">
        <source>Over %n approximate world(s) (imported runs with forks or orphans).</source>
        <translation>
            <numerusform>基于 %n 个近似世界（含分叉或孤儿的导入运行）。</numerusform>
        </translation>
    </message>
    <message>
        <source>Attainments are measured against each world&apos;s recorded best: a lucky best makes them all look lower.</source>
        <translation>达成度以各世界的记录最佳为基准：侥幸的最佳会使所有达成度显得偏低。</translation>
    </message>
    <message>
        <source>%1 (not valued under this configuration)</source>
        <translation>%1（在此配置下未估值）</translation>
    </message>
    <message numerus="yes">
        <source>%n checked version(s) without a value under this configuration: no frontier is drawn for them until they are replayed.</source>
        <translation>
            <numerusform>%n 个勾选的版本在此配置下无值：在重放之前不会为它们绘制前沿。</numerusform>
        </translation>
    </message>
    <message>
        <source>No value: %1</source>
        <translation>无值：%1</translation>
    </message>
    <message>
        <source>Replayed on %1 of the %2 worlds under this configuration, so it has no value and no frontier here; replay it to value it</source>
        <translation>在此配置下只在 %2 个世界中的 %1 个上重放过，因此此处没有值，也没有前沿；重放它即可估值</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ImaginedCells</name>
    <message numerus="yes">
        <source>the world is not one of the project&apos;s %n history world(s)</source>
        <translation>
            <numerusform>该世界不属于项目的 %n 个历史世界</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::InspectorWidget</name>
    <message>
        <source>Metric</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Fields</source>
        <translation>字段</translation>
    </message>
    <message>
        <source>Proposal</source>
        <translation>提案</translation>
    </message>
    <message>
        <source>Program</source>
        <translation>程序</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Metrics</source>
        <translation>指标</translation>
    </message>
    <message>
        <source>Click a cell in the tree or the table to inspect it.</source>
        <translation>点击树或表格中的单元以查看详情。</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Branch</source>
        <translation>分支</translation>
    </message>
    <message>
        <source>Attempt</source>
        <translation>尝试</translation>
    </message>
    <message>
        <source>Parent</source>
        <translation>父节点</translation>
    </message>
    <message>
        <source>root</source>
        <translation>根</translation>
    </message>
    <message>
        <source>Seq</source>
        <translation>序号</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Effective score</source>
        <translation>有效得分</translation>
    </message>
    <message>
        <source>Share of best</source>
        <translation>占最佳的比例</translation>
    </message>
    <message>
        <source>Evaluated</source>
        <translation>已评估</translation>
    </message>
    <message>
        <source>yes</source>
        <translation>是</translation>
    </message>
    <message>
        <source>no</source>
        <translation>否</translation>
    </message>
    <message>
        <source>Valid</source>
        <translation>有效</translation>
    </message>
    <message>
        <source>Outcome</source>
        <translation>结果</translation>
    </message>
    <message>
        <source>Tests passed</source>
        <translation>通过的测试</translation>
    </message>
    <message>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <source>Error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>Note</source>
        <translation>备注</translation>
    </message>
    <message>
        <source>Best cell of this tree</source>
        <translation>此树的最佳单元</translation>
    </message>
    <message>
        <source>This cell has no proposal.</source>
        <translation>此单元没有提案。</translation>
    </message>
    <message>
        <source>This cell has no program.</source>
        <translation>此单元没有程序。</translation>
    </message>
    <message>
        <source>The program is identical to the parent&apos;s (%1).</source>
        <translation>该程序与父节点（%1）的程序相同。</translation>
    </message>
    <message>
        <source>Attempt 0 starts from the root; there is no parent program.</source>
        <translation>第 0 次尝试从根开始；没有父程序。</translation>
    </message>
    <message>
        <source>error</source>
        <translation>错误</translation>
    </message>
    <message>
        <source>%1 of %2 test cases valid</source>
        <translation>%2 个测试用例中有 %1 个有效</translation>
    </message>
    <message>
        <source>The evaluator reported no output for this cell.</source>
        <translation>评估器未报告此单元的任何输出。</translation>
    </message>
    <message>
        <source>imagined</source>
        <translation>想象</translation>
    </message>
    <message>
        <source>Imagined</source>
        <translation>想象</translation>
    </message>
    <message>
        <source>yes: drawn from the world model, never evaluated</source>
        <translation>是：从世界模型中抽取，从未评估</translation>
    </message>
    <message>
        <source>yes: %1</source>
        <translation>是：%1</translation>
    </message>
    <message>
        <source>%1 (a fork: the real parent; the chain starts a new branch)</source>
        <translation>%1（分叉：真实的父节点；该链开启了一个新分支）</translation>
    </message>
    <message>
        <source>missing from the run (an orphan: program %1)</source>
        <translation>运行中缺失（孤儿：程序 %1）</translation>
    </message>
    <message>
        <source>root (the initial program)</source>
        <translation>根（初始程序）</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>%1 program %2</source>
        <translation>%1 程序 %2</translation>
    </message>
    <message>
        <source>Origin parent</source>
        <translation>来源父节点</translation>
    </message>
    <message>
        <source>Generation</source>
        <translation>代</translation>
    </message>
    <message>
        <source>Island</source>
        <translation>岛</translation>
    </message>
    <message>
        <source>Iteration found</source>
        <translation>发现时的迭代</translation>
    </message>
    <message>
        <source>Inspirations</source>
        <translation>灵感来源</translation>
    </message>
    <message>
        <source>initial program</source>
        <translation>初始程序</translation>
    </message>
    <message>
        <source>The program is identical to the initial program.</source>
        <translation>该程序与初始程序相同。</translation>
    </message>
    <message>
        <source>Re-evaluate…</source>
        <translation>重新评估…</translation>
    </message>
    <message>
        <source>Evaluate this cell&apos;s stored program again, several times, to see whether its score was lucky</source>
        <translation>再次多次评估此单元格保存的程序，查看其分数是否出于侥幸</translation>
    </message>
    <message>
        <source>Step</source>
        <translation>步骤</translation>
    </message>
    <message>
        <source>Cell</source>
        <translation>单元</translation>
    </message>
    <message>
        <source>Gain</source>
        <translation>增益</translation>
    </message>
    <message>
        <source>Path</source>
        <translation>路径</translation>
    </message>
    <message numerus="yes">
        <source>Re-evaluated %n time(s), %1 failed</source>
        <translation>
            <numerusform>已重新评估 %n 次，%1 次失败</numerusform>
        </translation>
    </message>
    <message>
        <source>mean %1 ± %2 (95 %)</source>
        <translation>均值 %1 ± %2（95 %）</translation>
    </message>
    <message>
        <source>mean %1</source>
        <translation>均值 %1</translation>
    </message>
    <message>
        <source>sd %1</source>
        <translation>标准差 %1</translation>
    </message>
    <message>
        <source>lucky: the recorded score lies above the interval</source>
        <translation>侥幸：记录的分数高于该区间</translation>
    </message>
    <message>
        <source>best by recorded score; best by mean: %1</source>
        <translation>按记录分数最佳；按均值最佳：%1</translation>
    </message>
    <message>
        <source>best by mean; best by recorded score: %1</source>
        <translation>按均值最佳；按记录分数最佳：%1</translation>
    </message>
    <message>
        <source>Failure, class not drawn by the world model</source>
        <translation>失败，世界模型未抽取其类别</translation>
    </message>
    <message>
        <source>Gain over the initial program&apos;s baseline score: no program before it on the path has a score</source>
        <translation>相对初始程序基线得分的增益：路径上在它之前的程序都没有得分</translation>
    </message>
    <message>
        <source>Gain over %1, the nearest program before it on the path with a score (its parent has none)</source>
        <translation>相对 %1 的增益，即路径上在它之前最近的有得分的程序（其父节点没有得分）</translation>
    </message>
    <message>
        <source>Files</source>
        <translation>文件</translation>
    </message>
    <message>
        <source>The files the cell refers to, fetched from the server</source>
        <translation>该单元引用的文件，从服务器获取</translation>
    </message>
    <message>
        <source>Asking %1 for the cell&apos;s files…</source>
        <translation>正在向 %1 请求该单元的文件…</translation>
    </message>
    <message>
        <source>The cell refers to no stored files.</source>
        <translation>该单元未引用任何已存储的文件。</translation>
    </message>
    <message>
        <source>Fetching %1…</source>
        <translation>正在获取 %1…</translation>
    </message>
    <message>
        <source>%1: binary, %2</source>
        <translation>%1：二进制，%2</translation>
    </message>
</context>
<context>
    <name>dreamrsi::LaunchRoundDialog</name>
    <message>
        <source>Launch Round</source>
        <translation>启动轮次</translation>
    </message>
    <message>
        <source>A built-in task, or the folder of a custom task (problem.md, initial program, task.json)</source>
        <translation>内置任务，或自定义任务的文件夹（problem.md、初始程序、task.json）</translation>
    </message>
    <message>
        <source>Folder…</source>
        <translation>文件夹…</translation>
    </message>
    <message>
        <source>Task Folder</source>
        <translation>任务文件夹</translation>
    </message>
    <message>
        <source>&amp;Task:</source>
        <translation>任务(&amp;T)：</translation>
    </message>
    <message>
        <source>&amp;Agent:</source>
        <translation>智能体(&amp;A)：</translation>
    </message>
    <message>
        <source>the provider&apos;s default</source>
        <translation>提供方默认值</translation>
    </message>
    <message>
        <source>&amp;Model:</source>
        <translation>模型(&amp;M)：</translation>
    </message>
    <message>
        <source>the provider&apos;s public endpoint</source>
        <translation>提供方的公共端点</translation>
    </message>
    <message>
        <source>Base &amp;URL:</source>
        <translation>基础 URL(&amp;U)：</translation>
    </message>
    <message>
        <source>run in the attempt&apos;s workspace with /bin/sh -c</source>
        <translation>在尝试的工作区中以 /bin/sh -c 运行</translation>
    </message>
    <message>
        <source>Key:</source>
        <translation>密钥：</translation>
    </message>
    <message>
        <source>&amp;Workers (W):</source>
        <translation>并行工作数（W）(&amp;W)：</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>&amp;Rounds (K1):</source>
        <translation>轮数（K1）(&amp;R)：</translation>
    </message>
    <message>
        <source>Latest approved (else builtin:portfolio)</source>
        <translation>最新批准的版本（否则为 builtin:portfolio）</translation>
    </message>
    <message>
        <source>&amp;Policy:</source>
        <translation>策略(&amp;P)：</translation>
    </message>
    <message>
        <source>the policy&apos;s default</source>
        <translation>策略默认值</translation>
    </message>
    <message>
        <source>&amp;Seed:</source>
        <translation>种子(&amp;S)：</translation>
    </message>
    <message>
        <source>no cap</source>
        <translation>无上限</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Slurm cluster</source>
        <translation>Slurm 集群</translation>
    </message>
    <message>
        <source>&amp;Evaluate on:</source>
        <translation>评估运行于(&amp;E)：</translation>
    </message>
    <message>
        <source>Partition:</source>
        <translation>分区：</translation>
    </message>
    <message>
        <source>the cluster&apos;s default</source>
        <translation>集群默认值</translation>
    </message>
    <message>
        <source>Account:</source>
        <translation>账户：</translation>
    </message>
    <message>
        <source>QOS:</source>
        <translation>QOS：</translation>
    </message>
    <message>
        <source>Extra sbatch arguments:</source>
        <translation>额外 sbatch 参数：</translation>
    </message>
    <message>
        <source>Shared work directory:</source>
        <translation>共享工作目录：</translation>
    </message>
    <message>
        <source>~/.cache/dreamrsi/slurm</source>
        <translation>~/.cache/dreamrsi/slurm</translation>
    </message>
    <message>
        <source>&amp;Launch</source>
        <translation>启动(&amp;L)</translation>
    </message>
    <message>
        <source>none needed (offline, deterministic)</source>
        <translation>无需（离线、确定性）</translation>
    </message>
    <message>
        <source>none needed</source>
        <translation>无需</translation>
    </message>
    <message>
        <source>%1 is not set (a local OpenAI-compatible server may need none)</source>
        <translation>%1 未设置（本地 OpenAI 兼容服务器可能无需密钥）</translation>
    </message>
    <message>
        <source>%1 is set</source>
        <translation>%1 已设置</translation>
    </message>
    <message>
        <source>Extra sbatch arguments: %1</source>
        <translation>额外 sbatch 参数：%1</translation>
    </message>
    <message>
        <source>Choose a task.</source>
        <translation>请选择任务。</translation>
    </message>
    <message>
        <source>The command agent needs a command.</source>
        <translation>命令智能体需要指定命令。</translation>
    </message>
    <message>
        <source>Comma&amp;nd:</source>
        <translation>命令(&amp;N)：</translation>
    </message>
    <message>
        <source>manual (you pick every batch in the live tree)</source>
        <translation>手动（由您在实时树中选择每个批次）</translation>
    </message>
    <message>
        <source>&amp;Beta (β):</source>
        <translation>Beta（β）(&amp;B)：</translation>
    </message>
    <message>
        <source>Max a&amp;gent calls:</source>
        <translation>智能体调用上限(&amp;G)：</translation>
    </message>
    <message>
        <source>Max c&amp;ost:</source>
        <translation>成本上限(&amp;O)：</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>An agent call still at work after this long is killed and its attempt stored as an agent failure.</source>
        <translation>智能体调用超过此时长仍未结束将被终止，该尝试记为智能体失败。</translation>
    </message>
    <message>
        <source>Agent time l&amp;imit:</source>
        <translation>智能体时间上限(&amp;I)：</translation>
    </message>
    <message>
        <source>C&amp;heck</source>
        <translation>检查(&amp;H)</translation>
    </message>
    <message>
        <source>Check the agent, the evaluator, the backend and the project, and estimate the round&apos;s calls, cost and time, without starting it</source>
        <translation>检查智能体、评估器、后端和项目，并估算本轮的调用次数、费用和时间，不启动本轮</translation>
    </message>
    <message>
        <source>Checking the project, the agent, the backend and the evaluator…</source>
        <translation>正在检查项目、智能体、后端和评估器…</translation>
    </message>
    <message>
        <source>automatic</source>
        <translation>自动</translation>
    </message>
    <message>
        <source> calls at most</source>
        <translation> 次调用（上限）</translation>
    </message>
    <message>
        <source>Probe calls after the policy&apos;s last batch, where the world model of the task&apos;s history is blind (a depth or a direction with fewer than 3 values). Automatic: up to %1 when the round deploys a dreamed version, none otherwise; 0: no probes.</source>
        <translation>在策略的最后一个批次之后，在任务历史的世界模型处于盲区的位置（值少于 3 个的深度或方向）进行探测调用。自动：本轮部署梦境推演得到的版本时最多 %1 次，否则不进行；0：不探测。</translation>
    </message>
    <message>
        <source>Probe &amp;calls:</source>
        <translation>探测调用(&amp;C)：</translation>
    </message>
    <message>
        <source>%1 is not set</source>
        <translation>%1 未设置</translation>
    </message>
    <message>
        <source>Earl&amp;y probes: up to %1 calls in the task&apos;s first %2 rounds while none has shown a refinement pay, then %3</source>
        <translation>早期探测(&amp;Y)：在任务的前 %2 轮中，只要还没有任何一次细化带来提升，最多 %1 次调用；之后 %3 次</translation>
    </message>
    <message>
        <source>--probe early: more evidence where the first rounds decide whether dreams learn depth. Not the default: on recorded worlds it gained attainment on some world sets and cost calls and more collapses on others (README, &quot;Early probes&quot;).</source>
        <translation>--probe early：在前几轮决定梦境推演能否学到深度的地方收集更多证据。它不是默认设置：在录制的世界上，它在一些世界集合上提高了达成度，在另一些上则增加了调用次数和崩溃次数（README，“Early probes”）。</translation>
    </message>
    <message>
        <source>Stop the round once its agent calls have used this many tokens, in and out together</source>
        <translation>当本轮智能体调用的输入与输出词元合计达到此数时停止本轮</translation>
    </message>
    <message>
        <source>Max to&amp;kens:</source>
        <translation>词元上限(&amp;K)：</translation>
    </message>
    <message>
        <source>variables let through to the command, e.g. MY_API_KEY, MY_BASE_URL</source>
        <translation>允许传给命令的环境变量，例如 MY_API_KEY, MY_BASE_URL</translation>
    </message>
    <message>
        <source>The command runs with only PATH, HOME and its DREAMRSI_ variables; the variables named here (comma-separated) are copied from this program&apos;s environment. Values whose names look secret are hidden in the logs.</source>
        <translation>命令运行时只有 PATH、HOME 和它的 DREAMRSI_ 变量；这里列出的变量（逗号分隔）从本程序的环境中复制过去。名称看起来是机密的变量，其值在日志中隐藏。</translation>
    </message>
    <message>
        <source>En&amp;vironment:</source>
        <translation>环境变量(&amp;V)：</translation>
    </message>
    <message>
        <source>Environment: %1.</source>
        <translation>环境变量：%1。</translation>
    </message>
</context>
<context>
    <name>dreamrsi::LiveDashboard</name>
    <message>
        <source>Best score by agent call</source>
        <translation>按智能体调用次数的最佳得分</translation>
    </message>
    <message>
        <source>Best so far</source>
        <translation>迄今最佳</translation>
    </message>
    <message>
        <source>Agent calls</source>
        <translation>智能体调用次数</translation>
    </message>
    <message>
        <source>Best score</source>
        <translation>最佳得分</translation>
    </message>
    <message>
        <source>Cost over time</source>
        <translation>成本随时间变化</translation>
    </message>
    <message>
        <source>Cumulative cost</source>
        <translation>累计成本</translation>
    </message>
    <message>
        <source>Elapsed time (s)</source>
        <translation>经过时间（秒）</translation>
    </message>
    <message>
        <source>USD</source>
        <translation>美元</translation>
    </message>
</context>
<context>
    <name>dreamrsi::LiveTreeModel</name>
    <message>
        <source>Branch %1</source>
        <translation>分支 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n 次尝试</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 running</source>
        <translation>%1 运行中</translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>Cell</source>
        <translation>单元</translation>
    </message>
    <message>
        <source>Status</source>
        <translation>状态</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Time</source>
        <translation>时间</translation>
    </message>
    <message>
        <source>%1 pending (%2 job %3, %4)</source>
        <translation>%1 排队中（%2 作业 %3，%4）</translation>
    </message>
    <message>
        <source>%1 pending (%2 job %3)</source>
        <translation>%1 排队中（%2 作业 %3）</translation>
    </message>
    <message>
        <source>%1 running on %2 job %3</source>
        <translation>%1 运行于 %2 作业 %3</translation>
    </message>
    <message>
        <source>%1 %2 (%3 job %4, %5)</source>
        <translation>%1 %2（%3 作业 %4，%5）</translation>
    </message>
    <message>
        <source>%1 %2 (%3 job %4)</source>
        <translation>%1 %2（%3 作业 %4）</translation>
    </message>
    <message>
        <source>%1 s · queued %2 s</source>
        <translation>%1 秒 · 排队 %2 秒</translation>
    </message>
    <message>
        <source>%1 s · queued %2 s · ran %3 s</source>
        <translation>%1 秒 · 排队 %2 秒 · 运行 %3 秒</translation>
    </message>
    <message>
        <source>%1 job %2: %3 (reason: %4)</source>
        <translation>%1 作业 %2：%3（原因：%4）</translation>
    </message>
    <message>
        <source>%1 job %2: %3</source>
        <translation>%1 作业 %2：%3</translation>
    </message>
    <message>
        <source>✕ closed by hand: never refined again</source>
        <translation>✕ 已手动关闭：不再细化</translation>
    </message>
    <message>
        <source>⇧ pinned by hand first in a batch</source>
        <translation>⇧ 已手动固定为批次中的首位</translation>
    </message>
    <message>
        <source>✎ given a hint for its next attempt</source>
        <translation>✎ 已为其下一次尝试提供提示</translation>
    </message>
    <message>
        <source>⊘ an attempt killed by hand</source>
        <translation>⊘ 一次尝试被手动终止</translation>
    </message>
    <message>
        <source>⚠ stalled: right-click to kill</source>
        <translation>⚠ 停滞：右键可终止</translation>
    </message>
    <message>
        <source>⚠ stalled</source>
        <translation>⚠ 停滞</translation>
    </message>
</context>
<context>
    <name>dreamrsi::MainWindow</name>
    <message>
        <source>Dream-RSI Workbench</source>
        <translation>Dream-RSI 工作台</translation>
    </message>
    <message>
        <source>Ready</source>
        <translation>就绪</translation>
    </message>
    <message>
        <source>Opening project %1…</source>
        <translation>正在打开项目 %1…</translation>
    </message>
    <message>
        <source>Cannot open project</source>
        <translation>无法打开项目</translation>
    </message>
    <message numerus="yes">
        <source>%n interrupted round(s) found; their finished attempts are kept.</source>
        <translation>
            <numerusform>发现 %n 个中断的轮次；其已完成的尝试已保留。</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 — Dream-RSI Workbench</source>
        <translation>%1 — Dream-RSI 工作台</translation>
    </message>
    <message>
        <source>Cannot read project</source>
        <translation>无法读取项目</translation>
    </message>
    <message>
        <source>Project %1: %2 worlds, %3 policy versions</source>
        <translation>项目 %1：%2 个世界，%3 个策略版本</translation>
    </message>
    <message>
        <source>Cannot import tree</source>
        <translation>无法导入树</translation>
    </message>
    <message>
        <source>Imported %1 into the project</source>
        <translation>已将 %1 导入项目</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Inspector</source>
        <translation>检查器</translation>
    </message>
    <message>
        <source>Main Toolbar</source>
        <translation>主工具栏</translation>
    </message>
    <message>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Open Tree…</source>
        <translation>打开树(&amp;O)…</translation>
    </message>
    <message>
        <source>Open Discovery Trees</source>
        <translation>打开发现树</translation>
    </message>
    <message>
        <source>Discovery trees (*.json);;All files (*)</source>
        <translation>发现树 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open &amp;Project…</source>
        <translation>打开项目(&amp;P)…</translation>
    </message>
    <message>
        <source>Open a Dream-RSI project (iterations, policy versions, replay results)</source>
        <translation>打开 Dream-RSI 项目（迭代、策略版本、重放结果）</translation>
    </message>
    <message>
        <source>Open Project</source>
        <translation>打开项目</translation>
    </message>
    <message>
        <source>Dream-RSI projects (*.dreamrsi *.sqlite *.db);;All files (*)</source>
        <translation>Dream-RSI 项目 (*.dreamrsi *.sqlite *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>&amp;New Project…</source>
        <translation>新建项目(&amp;N)…</translation>
    </message>
    <message>
        <source>New Project</source>
        <translation>新建项目</translation>
    </message>
    <message>
        <source>Dream-RSI projects (*.dreamrsi)</source>
        <translation>Dream-RSI 项目 (*.dreamrsi)</translation>
    </message>
    <message>
        <source>&amp;Import Trees into Project…</source>
        <translation>将树导入项目(&amp;I)…</translation>
    </message>
    <message>
        <source>Store tree files in the open project as new iterations</source>
        <translation>将树文件作为新迭代保存到当前项目中</translation>
    </message>
    <message>
        <source>Import Discovery Trees</source>
        <translation>导入发现树</translation>
    </message>
    <message>
        <source>&amp;Export Figure…</source>
        <translation>导出图表(&amp;E)…</translation>
    </message>
    <message>
        <source>Export the current tab&apos;s figure to PDF, SVG or PNG</source>
        <translation>将当前标签页的图表导出为 PDF、SVG 或 PNG</translation>
    </message>
    <message>
        <source>&amp;Close World</source>
        <translation>关闭世界(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <source>&amp;Find Cells…</source>
        <translation>查找单元(&amp;F)…</translation>
    </message>
    <message>
        <source>&amp;Settings…</source>
        <translation>设置(&amp;S)…</translation>
    </message>
    <message>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <source>Zoom &amp;In</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <source>Zoom &amp;Out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Fit Tree</source>
        <translation>适应窗口(&amp;F)</translation>
    </message>
    <message>
        <source>Show &amp;Legend</source>
        <translation>显示图例(&amp;L)</translation>
    </message>
    <message>
        <source>&amp;Dark Theme</source>
        <translation>深色主题(&amp;D)</translation>
    </message>
    <message>
        <source>&amp;Go to Tab</source>
        <translation>转到标签页(&amp;G)</translation>
    </message>
    <message>
        <source>&amp;Replay</source>
        <translation>重放(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Replay Selected Versions</source>
        <translation>重放所选版本(&amp;R)</translation>
    </message>
    <message>
        <source>&amp;Cancel Replays</source>
        <translation>取消重放(&amp;C)</translation>
    </message>
    <message>
        <source>&amp;Compare Two Versions</source>
        <translation>比较两个版本(&amp;C)</translation>
    </message>
    <message>
        <source>Step through the replays of two versions side by side</source>
        <translation>并排逐步查看两个版本的重放</translation>
    </message>
    <message>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <source>&amp;About Dream-RSI Workbench</source>
        <translation>关于 Dream-RSI 工作台(&amp;A)</translation>
    </message>
    <message>
        <source>About Dream-RSI Workbench</source>
        <translation>关于 Dream-RSI 工作台</translation>
    </message>
    <message>
        <source>&lt;p&gt;&lt;b&gt;Dream-RSI Workbench&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;Replay-based recursive self-improvement of exploration policies for LLM-driven program discovery.&lt;/p&gt;</source>
        <translation>&lt;p&gt;&lt;b&gt;Dream-RSI 工作台&lt;/b&gt; %1&lt;/p&gt;&lt;p&gt;基于重放的探索策略递归自我改进，用于大语言模型驱动的程序发现。&lt;/p&gt;</translation>
    </message>
    <message>
        <source>%1 approved: the next online round deploys it</source>
        <translation>%1 已批准：下一轮在线运行将部署它</translation>
    </message>
    <message>
        <source>Cannot read policy versions</source>
        <translation>无法读取策略版本</translation>
    </message>
    <message>
        <source>Cannot read replay results</source>
        <translation>无法读取回放结果</translation>
    </message>
    <message>
        <source>Cannot read approvals</source>
        <translation>无法读取批准记录</translation>
    </message>
    <message>
        <source>Cannot store %1</source>
        <translation>无法保存 %1</translation>
    </message>
    <message>
        <source>&amp;Dream…</source>
        <translation>梦境推演(&amp;D)…</translation>
    </message>
    <message>
        <source>Write, replay and propose new policy versions over the project&apos;s worlds</source>
        <translation>在项目的各个世界上编写、重放并提议新的策略版本</translation>
    </message>
    <message>
        <source>%1 (read-only) — Dream-RSI Workbench</source>
        <translation>%1（只读）— Dream-RSI Workbench</translation>
    </message>
    <message>
        <source>Another process (pid %1) writes this project: it is open read-only and its round is followed</source>
        <translation>另一个进程（pid %1）正在写入此项目：项目以只读方式打开，并跟随其轮次</translation>
    </message>
    <message>
        <source>Version %1 is not in the project (yet); try again</source>
        <translation>版本 %1（尚）不在项目中；请重试</translation>
    </message>
    <message>
        <source>Live Round</source>
        <translation>实时轮次</translation>
    </message>
    <message>
        <source>R&amp;ound</source>
        <translation>轮次(&amp;O)</translation>
    </message>
    <message>
        <source>&amp;Simulate the Loop…</source>
        <translation>模拟循环(&amp;S)…</translation>
    </message>
    <message>
        <source>Dream-RSI against fixed exploration over recorded worlds, repeated over many world orders</source>
        <translation>在已记录的世界上比较 Dream-RSI 与固定探索，并按多种世界顺序重复</translation>
    </message>
    <message>
        <source>Open discovery-tree files (dreamrsi-tree/1 JSON) or ShinkaEvolve databases</source>
        <translation>打开发现树文件（dreamrsi-tree/1 JSON）或 ShinkaEvolve 数据库</translation>
    </message>
    <message>
        <source>Discovery trees and runs (*.json *.sqlite *.sqlite3 *.db);;Discovery trees (*.json);;ShinkaEvolve databases (*.sqlite *.sqlite3 *.db);;All files (*)</source>
        <translation>发现树和运行 (*.json *.sqlite *.sqlite3 *.db);;发现树 (*.json);;ShinkaEvolve 数据库 (*.sqlite *.sqlite3 *.db);;所有文件 (*)</translation>
    </message>
    <message>
        <source>Open &amp;Run Folder…</source>
        <translation>打开运行文件夹(&amp;R)…</translation>
    </message>
    <message>
        <source>Open an OpenEvolve output, checkpoint or db folder as a tree (read-only)</source>
        <translation>将 OpenEvolve 的输出、检查点或数据库文件夹作为树打开（只读）</translation>
    </message>
    <message>
        <source>Open OpenEvolve Run Folder</source>
        <translation>打开 OpenEvolve 运行文件夹</translation>
    </message>
    <message>
        <source>&amp;User Guide</source>
        <translation>用户指南(&amp;U)</translation>
    </message>
    <message>
        <source>&amp;Keyboard Shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <source>Every keyboard shortcut of the window</source>
        <translation>窗口的所有键盘快捷键</translation>
    </message>
    <message>
        <source>Demo project</source>
        <translation>演示项目</translation>
    </message>
    <message>
        <source>Read the user guide (README and docs) in a window of its own</source>
        <translation>在单独的窗口中阅读用户指南（README 与 docs）</translation>
    </message>
    <message>
        <source>Dream… needs a project: open or create one</source>
        <translation>做梦…需要一个项目：请打开或新建一个</translation>
    </message>
    <message>
        <source>Dream… is off: another process writes this project</source>
        <translation>做梦…不可用：另一个进程正在写入此项目</translation>
    </message>
    <message>
        <source>Dream… is off: the project has no finished iteration to replay versions in (run a round or import trees first)</source>
        <translation>做梦…不可用：项目没有已完成的迭代可供重放版本（请先运行一轮或导入树）</translation>
    </message>
    <message>
        <source>Replay the version selected in the Project dock or on the Policies tab, else the versions checked in Frontiers, in every open world under the project&apos;s replay configuration</source>
        <translation>按项目的重放配置，在每个已打开的世界中重放“项目”面板或“策略”标签页中选中的版本，否则重放“前沿”中勾选的版本</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ManualBatchBar</name>
    <message>
        <source>The cells legal now: tick up to W of them, or click branches in the list or the tree</source>
        <translation>当前可选的单元：最多勾选 W 个，或在列表或树中点击分支</translation>
    </message>
    <message>
        <source>&amp;Run Batch</source>
        <translation>运行批次(&amp;R)</translation>
    </message>
    <message numerus="yes">
        <source>At most %n cell(s) per batch (W)</source>
        <translation>
            <numerusform>每批次最多 %n 个单元（W）</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · open branch b%2</source>
        <translation>%1 · 开启分支 b%2</translation>
    </message>
    <message>
        <source>%1 · refine b%2 (attempt %3)</source>
        <translation>%1 · 细化 b%2（尝试 %3）</translation>
    </message>
    <message>
        <source>Branch b%1 has no legal attempt now (finished, closed or beyond the grid)</source>
        <translation>分支 b%1 当前没有可用的尝试（已完成、已关闭或超出网格）</translation>
    </message>
    <message numerus="yes">
        <source>Round %1 is yours: pick up to %n cell(s) (ticks, or click branches in the list or the tree), then Run. Run with nothing picked ends the round.</source>
        <translation>
            <numerusform>第 %1 轮由您决定：最多选择 %n 个单元（勾选，或在列表或树中点击分支），然后点击“运行”。未选择任何单元就运行将结束本轮。</numerusform>
        </translation>
    </message>
    <message>
        <source>Round %1: %2 of at most %3 picked: %4</source>
        <translation>第 %1 轮：已选择 %2 个（最多 %3 个）：%4</translation>
    </message>
    <message>
        <source>&amp;End Round</source>
        <translation>结束轮次(&amp;E)</translation>
    </message>
</context>
<context>
    <name>dreamrsi::PlotStyle</name>
    <message>
        <source>Agent calls (fraction of the tree)</source>
        <translation>智能体调用（占树的比例）</translation>
    </message>
    <message>
        <source>Agent calls</source>
        <translation>智能体调用次数</translation>
    </message>
    <message>
        <source>Attainment (best score / tree best)</source>
        <translation>达成度（最佳得分 / 树的最佳得分）</translation>
    </message>
    <message>
        <source>value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>HV</source>
        <translation>超体积</translation>
    </message>
    <message>
        <source>penalty</source>
        <translation>惩罚</translation>
    </message>
    <message>
        <source>Best so far / tree best</source>
        <translation>当前最佳 / 树的最佳</translation>
    </message>
    <message>
        <source>Calls / tree size</source>
        <translation>调用次数 / 树大小</translation>
    </message>
    <message>
        <source>Attainment</source>
        <translation>达成度</translation>
    </message>
    <message>
        <source>Best so far</source>
        <translation>当前最佳</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>Penalty</source>
        <translation>惩罚</translation>
    </message>
    <message>
        <source>Series</source>
        <translation>系列</translation>
    </message>
    <message>
        <source>Final attainment</source>
        <translation>最终达成度</translation>
    </message>
    <message>
        <source>Calls to reach it</source>
        <translation>达到所需的调用次数</translation>
    </message>
    <message>
        <source>Re-evaluated: mean, 95 % interval</source>
        <translation>重新评估：均值与 95% 区间</translation>
    </message>
    <message>
        <source>Re-evaluated (95 %)</source>
        <translation>重新评估（95%）</translation>
    </message>
    <message>
        <source> (the same frontier as %1)</source>
        <translation>（与 %1 的前沿相同）</translation>
    </message>
</context>
<context>
    <name>dreamrsi::PoliciesPage</name>
    <message>
        <source>Compare with:</source>
        <translation>比较对象：</translation>
    </message>
    <message>
        <source>Code</source>
        <translation>代码</translation>
    </message>
    <message>
        <source>Diff</source>
        <translation>差异</translation>
    </message>
    <message>
        <source>Save as New Version</source>
        <translation>另存为新版本</translation>
    </message>
    <message>
        <source>Store the edited code as a new version derived from the selected one</source>
        <translation>将编辑后的代码保存为从所选版本派生的新版本</translation>
    </message>
    <message>
        <source>Revert</source>
        <translation>还原</translation>
    </message>
    <message>
        <source>Replay This Version</source>
        <translation>重放此版本</translation>
    </message>
    <message>
        <source>Run the β sweep of the selected version in every open world</source>
        <translation>在每个已打开的世界中对所选版本运行 β 扫描</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Replaying %1…</source>
        <translation>正在重放 %1…</translation>
    </message>
    <message>
        <source>%1: %v / %m episodes</source>
        <translation>%1：%v / %m 个回合</translation>
    </message>
    <message>
        <source>%1 replayed: value %2</source>
        <translation>%1 已重放：值 %2</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>Replay of %1 cancelled.</source>
        <translation>%1 的重放已取消。</translation>
    </message>
    <message>
        <source>Select two versions to compare.</source>
        <translation>请选择两个版本进行比较。</translation>
    </message>
    <message>
        <source>%1 (edited)</source>
        <translation>%1（已编辑）</translation>
    </message>
    <message>
        <source>%1 and %2 have the same code.</source>
        <translation>%1 和 %2 的代码相同。</translation>
    </message>
    <message>
        <source>Saved as %1; %2 is unchanged.</source>
        <translation>已保存为 %1；%2 保持不变。</translation>
    </message>
    <message>
        <source>Replay of %1 failed: %2</source>
        <translation>%1 的回放失败：%2</translation>
    </message>
    <message>
        <source>Approve for Redeployment…</source>
        <translation>批准重新部署…</translation>
    </message>
    <message>
        <source>Compare the selected version with the deployed one and approve it for the next online round</source>
        <translation>将所选版本与已部署版本比较，并批准其用于下一轮在线运行</translation>
    </message>
    <message>
        <source>Values under the project&apos;s replay configuration: %1.</source>
        <translation>基于项目重放配置的值：%1。</translation>
    </message>
    <message>
        <source>no value</source>
        <translation>无值</translation>
    </message>
    <message>
        <source>%1 under %2: %3</source>
        <translation>%1 在 %2 下：%3</translation>
    </message>
    <message>
        <source>Kept under other configurations, not compared with the table: %1.</source>
        <translation>在其他配置下保留、不与表格比较的值：%1。</translation>
    </message>
    <message>
        <source>Stale under this configuration (replay them): %1.</source>
        <translation>在此配置下已过期（请重放）：%1。</translation>
    </message>
    <message>
        <source>Tunable</source>
        <translation>可调参数</translation>
    </message>
    <message>
        <source>Parent</source>
        <translation>父版本</translation>
    </message>
    <message>
        <source>This version</source>
        <translation>此版本</translation>
    </message>
    <message>
        <source>Range</source>
        <translation>范围</translation>
    </message>
    <message>
        <source>Select a version to see its tunables.</source>
        <translation>选择一个版本以查看它的可调参数。</translation>
    </message>
    <message>
        <source>%1 has no tunables (top-level lines const NAME = number;).</source>
        <translation>%1 没有可调参数（顶层的 const NAME = number; 行）。</translation>
    </message>
    <message>
        <source>learned</source>
        <translation>学习得到</translation>
    </message>
    <message>
        <source>choice %1</source>
        <translation>选项 %1</translation>
    </message>
    <message>
        <source>[%1, %2]</source>
        <translation>[%1, %2]</translation>
    </message>
    <message>
        <source>Tunables of %1; it has no parent to compare with.</source>
        <translation>%1 的可调参数；它没有可比较的父版本。</translation>
    </message>
    <message numerus="yes">
        <source>Tunables of %1 against the stored version: %n changed.</source>
        <translation>
            <numerusform>%1 与已保存版本相比的可调参数：%n 个有改动。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Tunables of %1 against its parent %2: %n changed.</source>
        <translation>
            <numerusform>%1 与其父版本 %2 相比的可调参数：%n 个有改动。</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::PolicyTableModel</name>
    <message>
        <source>built-in</source>
        <translation>内置</translation>
    </message>
    <message>
        <source>edited</source>
        <translation>已编辑</translation>
    </message>
    <message>
        <source>agent</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>Version</source>
        <translation>版本</translation>
    </message>
    <message>
        <source>Origin</source>
        <translation>来源</translation>
    </message>
    <message>
        <source>Parent</source>
        <translation>父节点</translation>
    </message>
    <message>
        <source>Mean value over the scorable worlds</source>
        <translation>可评分世界上的平均值</translation>
    </message>
    <message>
        <source>Value</source>
        <translation>值</translation>
    </message>
    <message>
        <source>%1: value</source>
        <translation>%1：值</translation>
    </message>
    <message>
        <source>%1: HV</source>
        <translation>%1：超体积</translation>
    </message>
    <message>
        <source>%1: penalty</source>
        <translation>%1：惩罚</translation>
    </message>
    <message>
        <source>deployed (%1)</source>
        <translation>已部署（%1）</translation>
    </message>
    <message>
        <source>approved %1</source>
        <translation>已批准 %1</translation>
    </message>
    <message>
        <source>Approved by %1 on %2%3</source>
        <translation>由 %1 于 %2 批准%3</translation>
    </message>
    <message>
        <source>(unnamed)</source>
        <translation>（未署名）</translation>
    </message>
    <message>
        <source>Approvals for redeployment; the newest one is deployed in the next round</source>
        <translation>重新部署的批准记录；最新的一条将在下一轮部署</translation>
    </message>
    <message>
        <source>Approval</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>%1 of %2 worlds</source>
        <translation>%2 个世界中的 %1 个</translation>
    </message>
    <message>
        <source>Replayed on %1 of the %2 worlds, so there is no mean value yet: versions are compared over every world. Replay this version to fill in the rest.</source>
        <translation>只在 %2 个世界中的 %1 个上重放过，因此还没有平均值：各版本要在所有世界上比较。重放此版本即可补齐其余世界。</translation>
    </message>
    <message>
        <source>Mean over this world&apos;s C = %1 imagined completions</source>
        <translation>此世界 C = %1 个想象补全上的平均值</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ProgressPage</name>
    <message>
        <source>This project</source>
        <translation>本项目</translation>
    </message>
    <message>
        <source>Open a project with iterations to see its best score against cumulative agent calls.</source>
        <translation>打开一个含有迭代的项目，查看最佳分数随累计智能体调用次数的变化。</translation>
    </message>
    <message numerus="yes">
        <source>%n iteration(s), %1 agent calls, best score %2.</source>
        <translation>
            <numerusform>%n 次迭代，%1 次智能体调用，最佳分数 %2。</numerusform>
        </translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message numerus="yes">
        <source>%n iteration(s) of %1 tasks, one curve per task.</source>
        <translation>
            <numerusform>%1 个任务的 %n 次迭代，每个任务一条曲线。</numerusform>
        </translation>
    </message>
    <message>
        <source>This project&apos;s progress</source>
        <translation>本项目的进展</translation>
    </message>
    <message>
        <source>The project&apos;s own iterations, or a simulated loop (Replay ▸ Simulate the Loop…)</source>
        <translation>项目自身的迭代，或模拟的循环（重放 ▸ 模拟循环…）</translation>
    </message>
    <message>
        <source>Simulation of %1</source>
        <translation>%1 的模拟</translation>
    </message>
    <message>
        <source>Cannot show this simulation: %1</source>
        <translation>无法显示此模拟：%1</translation>
    </message>
    <message>
        <source>%1: %2 calls per iteration, attainment %3</source>
        <translation>%1：每次迭代 %2 次调用，达成度 %3</translation>
    </message>
    <message>
        <source>Dream-RSI reaches fixed exploration&apos;s final best after %1 calls on average</source>
        <translation>Dream-RSI 平均在 %1 次调用后达到固定探索的最终最佳</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进展</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ProgressPlot</name>
    <message>
        <source>Cumulative agent calls</source>
        <translation>累计智能体调用次数</translation>
    </message>
    <message>
        <source>Agent calls</source>
        <translation>智能体调用次数</translation>
    </message>
    <message>
        <source>Best score so far</source>
        <translation>迄今最佳分数</translation>
    </message>
    <message>
        <source>Best score</source>
        <translation>最佳分数</translation>
    </message>
    <message>
        <source>it. %1</source>
        <translation>迭代 %1</translation>
    </message>
    <message>
        <source>Run</source>
        <translation>运行</translation>
    </message>
    <message>
        <source>Iterations</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Calls to reach it</source>
        <translation>达到所需调用次数</translation>
    </message>
    <message>
        <source>Attainment (best so far / task&apos;s best)</source>
        <translation>达成度（迄今最佳 / 任务的最佳）</translation>
    </message>
    <message>
        <source>Attainment</source>
        <translation>达成度</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ProjectPage</name>
    <message>
        <source>Discovery</source>
        <translation>发现</translation>
    </message>
    <message>
        <source>Cells</source>
        <translation>单元</translation>
    </message>
    <message>
        <source>Replay</source>
        <translation>重放</translation>
    </message>
    <message>
        <source>Frontiers</source>
        <translation>前沿</translation>
    </message>
    <message>
        <source>Policies</source>
        <translation>策略</translation>
    </message>
    <message>
        <source>Progress</source>
        <translation>进展</translation>
    </message>
    <message>
        <source>World Model</source>
        <translation>世界模型</translation>
    </message>
    <message>
        <source>Compare</source>
        <translation>比较</translation>
    </message>
    <message>
        <source>Replaying %1: %2 of %3 episodes</source>
        <translation>正在重放 %1：%3 个回合中的第 %2 个</translation>
    </message>
    <message>
        <source>Replay of %1 failed: %2</source>
        <translation>%1 的重放失败：%2</translation>
    </message>
    <message>
        <source>Replay of %1 cancelled</source>
        <translation>%1 的重放已取消</translation>
    </message>
    <message>
        <source>Nothing was replayed: the versions or the worlds were closed meanwhile</source>
        <translation>未重放任何内容：版本或世界在此期间已被关闭</translation>
    </message>
    <message>
        <source>Nothing was replayed: no world is open (open a project or tree files)</source>
        <translation>未重放任何内容：没有打开的世界（请打开项目或树文件）</translation>
    </message>
    <message>
        <source>Nothing was replayed: no version is selected (select one in Policies or the Project dock, or check versions in Frontiers)</source>
        <translation>未重放任何内容：未选择版本（请在“策略”或“项目”面板中选择一个，或在“前沿”中勾选版本）</translation>
    </message>
    <message numerus="yes">
        <source>Replayed %1 over %n world(s): value %2</source>
        <translation>
            <numerusform>已在 %n 个世界上重放 %1：值 %2</numerusform>
        </translation>
    </message>
    <message>
        <source>no world is scorable</source>
        <translation>没有可评分的世界</translation>
    </message>
    <message numerus="yes">
        <source>Replayed %1 over %n world(s): no value under this configuration (%2)</source>
        <translation>
            <numerusform>已在 %n 个世界上重放 %1：在此配置下无值（%2）</numerusform>
        </translation>
    </message>
    <message>
        <source>Replay configuration stored: %1</source>
        <translation>已保存重放配置：%1</translation>
    </message>
    <message>
        <source>Replay stale versions?</source>
        <translation>重放过期的版本？</translation>
    </message>
    <message numerus="yes">
        <source>%n policy version(s) have values computed under another replay configuration: %1.

Replay them now under the project&apos;s configuration? Their old values are kept and listed with their own configuration.</source>
        <translation>
            <numerusform>%n 个策略版本的值是在另一种重放配置下计算的：%1。

现在按项目的配置重放它们吗？它们的旧值会保留，并与各自的配置一同列出。</numerusform>
        </translation>
    </message>
    <message>
        <source>A round is running in this project: the Live Round panel shows its tree as it grows; each finished iteration is listed under Worlds, to be shown here.</source>
        <translation>此项目中有轮次正在运行：“实时轮次”面板会显示其不断生长的树；每个已完成的迭代都列在“世界”下，可在此处显示。</translation>
    </message>
    <message>
        <source>This project has no finished iteration yet: Launch Round… (Ctrl+Shift+L) runs one.</source>
        <translation>此项目尚无已完成的迭代：“启动轮次…”（Ctrl+Shift+L）可运行一次。</translation>
    </message>
    <message>
        <source>Pick a world in the Project panel to show its tree.</source>
        <translation>在“项目”面板中选择一个世界以显示其树。</translation>
    </message>
    <message>
        <source>The current tab has no figure to export.</source>
        <translation>当前标签页没有可导出的图表。</translation>
    </message>
    <message>
        <source>The current tab&apos;s figure has no data to write.</source>
        <translation>当前标签页的图没有可写出的数据。</translation>
    </message>
    <message>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <source>Exported %1 and %2</source>
        <translation>已导出 %1 和 %2</translation>
    </message>
    <message>
        <source>Exported %1</source>
        <translation>已导出 %1</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ProjectSession</name>
    <message>
        <source>policy version %1</source>
        <translation>策略版本 %1</translation>
    </message>
    <message>
        <source>results of %1</source>
        <translation>%1 的结果</translation>
    </message>
    <message>
        <source>the approval of %1</source>
        <translation>%1 的批准记录</translation>
    </message>
    <message>
        <source>the project is open read-only while another process (pid %1) writes it</source>
        <translation>另一个进程（pid %1）正在写入，项目以只读方式打开</translation>
    </message>
    <message>
        <source>the approval</source>
        <translation>批准</translation>
    </message>
    <message>
        <source>the replay configuration</source>
        <translation>重放配置</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ProjectTreeModel</name>
    <message>
        <source>Worlds (%1)</source>
        <translation>世界（%1）</translation>
    </message>
    <message>
        <source>Policy versions (%1)</source>
        <translation>策略版本（%1）</translation>
    </message>
    <message>
        <source>%1 — value %2</source>
        <translation>%1 — 值 %2</translation>
    </message>
    <message>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>%1 — %2 of %3 worlds</source>
        <translation>%1 — %3 个世界中的 %2 个</translation>
    </message>
    <message>
        <source>%1 — %2</source>
        <translation>%1 — %2</translation>
    </message>
    <message>
        <source>%1 (approximate)</source>
        <translation>%1（近似）</translation>
    </message>
</context>
<context>
    <name>dreamrsi::RecentMenu</name>
    <message>
        <source>Open &amp;Recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <source>Demo project</source>
        <translation>演示项目</translation>
    </message>
    <message>
        <source>Projects</source>
        <translation>项目</translation>
    </message>
    <message>
        <source>Tree Files and Runs</source>
        <translation>树文件和运行</translation>
    </message>
    <message>
        <source>Clear List</source>
        <translation>清空列表</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ReevaluationActions</name>
    <message>
        <source>Re-evaluate</source>
        <translation>重新评估</translation>
    </message>
    <message>
        <source>Best cells (K):</source>
        <translation>最佳单元格数 (K)：</translation>
    </message>
    <message>
        <source>Evaluations per cell; an interval needs at least two that succeed</source>
        <translation>每个单元格的评估次数；区间至少需要两次成功的评估</translation>
    </message>
    <message>
        <source>Repeats per cell (R):</source>
        <translation>每个单元格重复次数 (R)：</translation>
    </message>
    <message>
        <source>This machine</source>
        <translation>本机</translation>
    </message>
    <message>
        <source>Slurm (the cluster in Preferences)</source>
        <translation>Slurm（首选项中的集群）</translation>
    </message>
    <message>
        <source>Where the evaluations run, as `dreamrsi reevaluate --backend` chooses</source>
        <translation>评估在哪里运行，与 `dreamrsi reevaluate --backend` 的选择相同</translation>
    </message>
    <message>
        <source>Run on:</source>
        <translation>运行于：</translation>
    </message>
    <message>
        <source>Re-evaluate…</source>
        <translation>重新评估…</translation>
    </message>
    <message>
        <source>Evaluate the current cell&apos;s stored program again, several times</source>
        <translation>再次多次评估当前单元格保存的程序</translation>
    </message>
    <message>
        <source>Re-evaluate the &amp;Best…</source>
        <translation>重新评估最佳(&amp;B)…</translation>
    </message>
    <message>
        <source>Evaluate the best cells of the shown iteration again, several times each</source>
        <translation>再次评估所显示迭代中的最佳单元格，每个多次</translation>
    </message>
    <message>
        <source>Re-evaluation failed: %1</source>
        <translation>重新评估失败：%1</translation>
    </message>
    <message>
        <source>Evaluate the stored program of %1 again, R times. Its recorded score does not change.</source>
        <translation>再次评估 %1 保存的程序 R 次。其记录的分数不会改变。</translation>
    </message>
    <message>
        <source>Evaluate the best K cells of iteration %1 by recorded score again, R times each. The recorded scores do not change.</source>
        <translation>按记录分数再次评估迭代 %1 中最佳的 K 个单元格，每个 R 次。记录的分数不会改变。</translation>
    </message>
    <message>
        <source>Re-evaluating…</source>
        <translation>正在重新评估…</translation>
    </message>
    <message>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <source>Cancelling: the evaluation under way is abandoned…</source>
        <translation>正在取消：进行中的评估将被放弃…</translation>
    </message>
    <message>
        <source>Re-evaluating: %1 of %2 evaluations done (%3)</source>
        <translation>正在重新评估：已完成 %1/%2 次评估（%3）</translation>
    </message>
    <message>
        <source>%1 not re-evaluated: %2</source>
        <translation>%1 未重新评估：%2</translation>
    </message>
    <message numerus="yes">
        <source>Re-evaluation cancelled: %n evaluation(s) stored</source>
        <translation>
            <numerusform>重新评估已取消：已保存 %n 次评估</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Re-evaluation done: %n evaluation(s) stored</source>
        <translation>
            <numerusform>重新评估完成：已保存 %n 次评估</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>dreamrsi::RemoteConnection</name>
    <message>
        <source>Nothing answers at %1: is `dreamrsi serve` running there, and the port forwarded (ssh -L)?</source>
        <translation>%1 无应答：那里是否正在运行 `dreamrsi serve`，端口是否已转发（ssh -L）？</translation>
    </message>
    <message>
        <source>The host of %1 is not known</source>
        <translation>%1 的主机未知</translation>
    </message>
    <message>
        <source>%1 closed the connection</source>
        <translation>%1 关闭了连接</translation>
    </message>
    <message>
        <source>%1 did not answer in time</source>
        <translation>%1 未及时应答</translation>
    </message>
    <message>
        <source>%1: the TLS handshake failed (%2)</source>
        <translation>%1：TLS 握手失败（%2）</translation>
    </message>
    <message>
        <source>%1: %2</source>
        <translation>%1：%2</translation>
    </message>
    <message>
        <source>%1 refused the token (401): %2</source>
        <translation>%1 拒绝了令牌（401）：%2</translation>
    </message>
    <message>
        <source>%1 refused (403): %2</source>
        <translation>%1 拒绝（403）：%2</translation>
    </message>
    <message>
        <source>%1 refused (409): %2</source>
        <translation>%1 拒绝（409）：%2</translation>
    </message>
    <message>
        <source>%1 is busy (503): %2</source>
        <translation>%1 繁忙（503）：%2</translation>
    </message>
    <message>
        <source>%1 answered %2: %3</source>
        <translation>%1 应答 %2：%3</translation>
    </message>
    <message>
        <source>%1%2: the answer is not a JSON object (%3)</source>
        <translation>%1%2：应答不是 JSON 对象（%3）</translation>
    </message>
    <message>
        <source>Connected to %1 without a steering token: reconnect with the token of --steering-token-file to steer or approve</source>
        <translation>连接 %1 时未提供引导令牌：请使用 --steering-token-file 的令牌重新连接以进行引导或批准</translation>
    </message>
</context>
<context>
    <name>dreamrsi::RemoteFollower</name>
    <message>
        <source>connected to %1 without a steering token</source>
        <translation>连接 %1 时未提供引导令牌</translation>
    </message>
    <message>
        <source>Connected to %1: following its rounds</source>
        <translation>已连接 %1：正在跟随其轮次</translation>
    </message>
    <message>
        <source>%1 ended the stream</source>
        <translation>%1 结束了事件流</translation>
    </message>
    <message numerus="yes">
        <source>Connection to %1 lost: %2; trying again in %n s</source>
        <translation>
            <numerusform>与 %1 的连接已断开：%2；%n 秒后重试</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 sent a cell that cannot be read (seq %2): %3</source>
        <translation>%1 发送了无法读取的单元（seq %2）：%3</translation>
    </message>
</context>
<context>
    <name>dreamrsi::RemoteProjectSession</name>
    <message>
        <source>%1: iteration %2: %3</source>
        <translation>%1：迭代 %2：%3</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not an artifact of the served project</source>
        <translation>“%1”不是所提供项目的产物</translation>
    </message>
    <message>
        <source>&apos;%1&apos; is not a cell of the served project</source>
        <translation>“%1”不是所服务项目中的单元</translation>
    </message>
    <message>
        <source>cannot make a temporary folder: %1</source>
        <translation>无法创建临时文件夹：%1</translation>
    </message>
    <message>
        <source>cannot make the folder %1</source>
        <translation>无法创建文件夹 %1</translation>
    </message>
</context>
<context>
    <name>dreamrsi::RemoteWorkbench</name>
    <message>
        <source>Connect to &amp;Server…</source>
        <translation>连接服务器(&amp;S)…</translation>
    </message>
    <message>
        <source>Open a project served by dreamrsi serve (here or through ssh -L) and follow its rounds</source>
        <translation>打开由 dreamrsi serve 提供的项目（本机或经由 ssh -L）并跟随其轮次</translation>
    </message>
    <message>
        <source>remote: %1</source>
        <translation>远程：%1</translation>
    </message>
    <message>
        <source>remote: %1 — %2</source>
        <translation>远程：%1 — %2</translation>
    </message>
    <message>
        <source>Connected to %1: loading its project…</source>
        <translation>已连接 %1：正在加载其项目…</translation>
    </message>
    <message>
        <source>Could not connect to %1</source>
        <translation>无法连接 %1</translation>
    </message>
    <message>
        <source>Connect to Server</source>
        <translation>连接服务器</translation>
    </message>
    <message>
        <source>Could not open the project served at %1.</source>
        <translation>无法打开 %1 提供的项目。</translation>
    </message>
    <message>
        <source>Part of the served project could not be read: %1</source>
        <translation>所提供项目的部分内容无法读取：%1</translation>
    </message>
    <message>
        <source>remote: %1 — project %2: %3 worlds, %4 policy versions</source>
        <translation>远程：%1 — 项目 %2：%3 个世界，%4 个策略版本</translation>
    </message>
    <message>
        <source>Declined at %1</source>
        <translation>已在 %1 拒绝</translation>
    </message>
    <message>
        <source>%1 approved at %2: the next round there deploys it</source>
        <translation>已在 %2 批准 %1：那里的下一轮将部署它</translation>
    </message>
    <message>
        <source>Approval not stored</source>
        <translation>批准未保存</translation>
    </message>
    <message>
        <source>The token was not kept in the keychain: %1</source>
        <translation>令牌未保存到钥匙串：%1</translation>
    </message>
    <message>
        <source>Connecting to %1…</source>
        <translation>正在连接 %1…</translation>
    </message>
    <message>
        <source>%1 (remote: %2) — Dream-RSI Workbench</source>
        <translation>%1（远程：%2）— Dream-RSI 工作台</translation>
    </message>
    <message>
        <source>Servers</source>
        <translation>服务器</translation>
    </message>
    <message>
        <source>%1 (remote)</source>
        <translation>%1（远程）</translation>
    </message>
    <message>
        <source>Connect to the project served at %1</source>
        <translation>连接 %1 提供的项目</translation>
    </message>
    <message>
        <source>remote: %1 — reading its iterations for Progress and Compare…</source>
        <translation>远程：%1 — 正在为“进展”和“比较”读取其迭代…</translation>
    </message>
    <message>
        <source>remote: %1 — Progress and Compare show its iterations</source>
        <translation>远程：%1 — “进展”和“比较”显示其迭代</translation>
    </message>
    <message>
        <source>remote: %1 — Progress and Compare could not read its iterations: %2</source>
        <translation>远程：%1 — “进展”和“比较”无法读取其迭代：%2</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ReplayPage</name>
    <message>
        <source>World:</source>
        <translation>世界：</translation>
    </message>
    <message>
        <source>β:</source>
        <translation>β：</translation>
    </message>
    <message>
        <source>A:</source>
        <translation>A：</translation>
    </message>
    <message>
        <source>B:</source>
        <translation>B：</translation>
    </message>
    <message>
        <source>Back to the first round (Home)</source>
        <translation>回到第一轮（Home）</translation>
    </message>
    <message>
        <source>One round back (Left)</source>
        <translation>后退一轮（左方向键）</translation>
    </message>
    <message>
        <source>One round forward (Right)</source>
        <translation>前进一轮（右方向键）</translation>
    </message>
    <message>
        <source>Playback speed (rounds per second)</source>
        <translation>播放速度（每秒轮数）</translation>
    </message>
    <message>
        <source>Speed:</source>
        <translation>速度：</translation>
    </message>
    <message>
        <source>round %1/%2, %3 calls, attainment %4</source>
        <translation>第 %1/%2 轮，%3 次调用，达成度 %4</translation>
    </message>
    <message>
        <source>replaying…</source>
        <translation>正在重放…</translation>
    </message>
    <message>
        <source>Round %1 of %2</source>
        <translation>第 %1 轮，共 %2 轮</translation>
    </message>
    <message>
        <source>Anytime curves</source>
        <translation>任意时刻曲线</translation>
    </message>
    <message>
        <source>An approximate world: an imported run whose forks replay as new ideas</source>
        <translation>近似世界：导入的运行，其分叉在重放时被视为新想法</translation>
    </message>
    <message>
        <source>Play (Space)</source>
        <translation>播放（空格）</translation>
    </message>
    <message>
        <source>Pause (Space)</source>
        <translation>暂停（空格）</translation>
    </message>
</context>
<context>
    <name>dreamrsi::RoundController</name>
    <message>
        <source>A round is already running</source>
        <translation>已有轮次正在运行</translation>
    </message>
    <message>
        <source>Open or create a project before launching a round</source>
        <translation>启动轮次前请先打开或新建项目</translation>
    </message>
    <message>
        <source>The project is open read-only while another process writes it; no round can start here</source>
        <translation>另一个进程正在写入，项目以只读方式打开；此处无法启动轮次</translation>
    </message>
    <message>
        <source>Iteration %1 stays %2; Resume Round continues it later</source>
        <translation>迭代 %1 保持 %2 状态；“恢复轮次”可稍后继续它</translation>
    </message>
    <message>
        <source>the project was closed</source>
        <translation>项目已关闭</translation>
    </message>
    <message>
        <source>The round cannot start: %1</source>
        <translation>本轮无法开始：%1</translation>
    </message>
    <message>
        <source>Stop: the running attempts finish, then the round stops (press again to kill them)</source>
        <translation>停止：正在运行的尝试完成后轮次将停止（再次按下将强制终止它们）</translation>
    </message>
    <message>
        <source>Stop again: killing the running attempts</source>
        <translation>再次停止：正在强制终止运行中的尝试</translation>
    </message>
    <message>
        <source>Open a project to steer its round</source>
        <translation>请打开项目以引导其轮次</translation>
    </message>
    <message>
        <source>steering: %1 not sent: %2</source>
        <translation>引导：%1 未发送：%2</translation>
    </message>
    <message>
        <source>Sent %1; it applies before the next batch</source>
        <translation>已发送 %1；将在下一批次之前生效</translation>
    </message>
    <message>
        <source>steering by %1: %2 — applied: %3</source>
        <translation>%1 的引导：%2 — 已应用：%3</translation>
    </message>
    <message>
        <source>steering by %1: %2 — refused: %3</source>
        <translation>%1 的引导：%2 — 已拒绝：%3</translation>
    </message>
    <message>
        <source>approval: %1 not sent: %2</source>
        <translation>批准：%1 未发送：%2</translation>
    </message>
    <message>
        <source>Sent %1 to the waiting loop</source>
        <translation>已将 %1 发送给等待中的循环</translation>
    </message>
    <message>
        <source>Sent %1; it applies at once</source>
        <translation>已发送 %1；立即生效</translation>
    </message>
    <message>
        <source>no round is running</source>
        <translation>没有正在运行的轮次</translation>
    </message>
    <message>
        <source>remote: %1</source>
        <translation>远程：%1</translation>
    </message>
    <message>
        <source>pid %1</source>
        <translation>pid %1</translation>
    </message>
    <message>
        <source>Sent %1 to %2</source>
        <translation>已将 %1 发送至 %2</translation>
    </message>
    <message>
        <source>approved %1</source>
        <translation>已批准 %1</translation>
    </message>
    <message>
        <source>declined</source>
        <translation>已拒绝</translation>
    </message>
</context>
<context>
    <name>dreamrsi::RoundPanel</name>
    <message>
        <source>&amp;Launch Round…</source>
        <translation>启动轮次(&amp;L)…</translation>
    </message>
    <message>
        <source>Run a live round: the policy picks attempts, the agent writes programs, the evaluator scores them</source>
        <translation>运行实时轮次：策略选择尝试，智能体编写程序，评估器为程序评分</translation>
    </message>
    <message>
        <source>&amp;Stop Round</source>
        <translation>停止轮次(&amp;S)</translation>
    </message>
    <message>
        <source>Let the running attempts finish and stop; press again to kill them</source>
        <translation>让正在运行的尝试完成后停止；再次按下将强制终止它们</translation>
    </message>
    <message>
        <source>&amp;Resume Round…</source>
        <translation>恢复轮次(&amp;R)…</translation>
    </message>
    <message>
        <source>Continue an interrupted or stopped iteration</source>
        <translation>继续中断或已停止的迭代</translation>
    </message>
    <message>
        <source>No round running</source>
        <translation>没有正在运行的轮次</translation>
    </message>
    <message>
        <source>&amp;Kill Running Attempts</source>
        <translation>强制终止正在运行的尝试(&amp;K)</translation>
    </message>
    <message>
        <source>Iteration %1 resumed</source>
        <translation>迭代 %1 已恢复</translation>
    </message>
    <message>
        <source>Iteration %1 running</source>
        <translation>迭代 %1 正在运行</translation>
    </message>
    <message>
        <source>Launch Round</source>
        <translation>启动轮次</translation>
    </message>
    <message>
        <source>Open or create a project first: rounds are stored in it.</source>
        <translation>请先打开或新建项目：轮次将保存在项目中。</translation>
    </message>
    <message>
        <source>Resume Round</source>
        <translation>恢复轮次</translation>
    </message>
    <message>
        <source>No interrupted or stopped iteration in this project.</source>
        <translation>此项目中没有中断或已停止的迭代。</translation>
    </message>
    <message>
        <source>Resume Iteration %1</source>
        <translation>恢复迭代 %1</translation>
    </message>
    <message>
        <source>Calls %1 · Tokens %2 in / %3 out · Cost $%4 · Best %5 · Running %6</source>
        <translation>调用 %1 · Token 输入 %2 / 输出 %3 · 成本 $%4 · 最佳 %5 · 运行中 %6</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Iteration %1 %2: %3</source>
        <translation>迭代 %1 %2：%3</translation>
    </message>
    <message>
        <source>Branch %1</source>
        <translation>分支 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n 次尝试</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 s</source>
        <translation>%1 秒</translation>
    </message>
    <message>
        <source>The other process (pid %1) has closed the project</source>
        <translation>另一个进程（pid %1）已关闭项目</translation>
    </message>
    <message>
        <source>Iteration %1</source>
        <translation>迭代 %1</translation>
    </message>
    <message>
        <source>Round</source>
        <translation>轮次</translation>
    </message>
    <message>
        <source>Read-only: another process (pid %1) writes this project; waiting for its round</source>
        <translation>只读：另一个进程（pid %1）正在写入此项目；等待其轮次</translation>
    </message>
    <message>
        <source>Waiting for pid %1</source>
        <translation>等待 pid %1</translation>
    </message>
    <message>
        <source>Following iteration %1, a round running in another process (pid %2); read-only</source>
        <translation>正在跟随迭代 %1，该轮次在另一个进程（pid %2）中运行；只读</translation>
    </message>
    <message>
        <source>Following pid %1</source>
        <translation>跟随 pid %1</translation>
    </message>
    <message>
        <source>Iteration %1 interrupted: the process that ran it (pid %2) ended without closing it</source>
        <translation>迭代 %1 已中断：运行它的进程（pid %2）未关闭就已结束</translation>
    </message>
    <message>
        <source>Calls %1 · Tokens %2 in / %3 out · Cost $%4 · Best %5</source>
        <translation>调用 %1 · Token 输入 %2 / 输出 %3 · 成本 $%4 · 最佳 %5</translation>
    </message>
    <message>
        <source>&amp;Pause After This Batch</source>
        <translation>本批次后暂停(&amp;P)</translation>
    </message>
    <message>
        <source>No new batch starts until Continue; running attempts finish</source>
        <translation>在点击“继续”前不会开始新批次；正在运行的尝试会完成</translation>
    </message>
    <message>
        <source>C&amp;ontinue Round</source>
        <translation>继续轮次(&amp;O)</translation>
    </message>
    <message>
        <source>Let a paused round start its next batch</source>
        <translation>让已暂停的轮次开始下一批次</translation>
    </message>
    <message>
        <source>Close Branch b%1</source>
        <translation>关闭分支 b%1</translation>
    </message>
    <message>
        <source>Refine b%1 Next</source>
        <translation>下一个细化 b%1</translation>
    </message>
    <message>
        <source>Hint for b%1&apos;s Next Attempt…</source>
        <translation>为 b%1 的下一次尝试提供提示…</translation>
    </message>
    <message>
        <source>Hint for b%1</source>
        <translation>b%1 的提示</translation>
    </message>
    <message>
        <source>Text given to the agent with branch b%1&apos;s next attempt:</source>
        <translation>随分支 b%1 的下一次尝试提供给智能体的文本：</translation>
    </message>
    <message>
        <source>Hint for the Next New Branch…</source>
        <translation>为下一个新分支提供提示…</translation>
    </message>
    <message>
        <source>Hint for the next new branch</source>
        <translation>下一个新分支的提示</translation>
    </message>
    <message>
        <source>Text given to the agent with the next branch the round opens:</source>
        <translation>随本轮开启的下一个分支提供给智能体的文本：</translation>
    </message>
    <message>
        <source>Iteration %1 paused: Continue starts the next batch</source>
        <translation>迭代 %1 已暂停：点击“继续”开始下一批次</translation>
    </message>
    <message>
        <source>Iteration %1: round %2 waits for your batch</source>
        <translation>迭代 %1：第 %2 轮等待您选择批次</translation>
    </message>
    <message>
        <source>Iteration %1: the first attempts are running; the tree grows here as their cells are stored.</source>
        <translation>迭代 %1：首批尝试正在运行；随着其单元被保存，树会在此处生长。</translation>
    </message>
    <message>
        <source>Another process (pid %1) holds this project: its next round is followed here as it runs.</source>
        <translation>另一个进程（pid %1）占用着此项目：其下一轮次运行时将在此处跟随显示。</translation>
    </message>
    <message>
        <source>No round is running. Launch Round… runs one; its tree grows here.</source>
        <translation>没有正在运行的轮次。“启动轮次…”可运行一轮；其树会在此处生长。</translation>
    </message>
    <message>
        <source>No project is open. Open or create one, then Launch Round… to run a round here.</source>
        <translation>未打开项目。请打开或新建项目，然后通过“启动轮次…”在此运行一轮。</translation>
    </message>
    <message>
        <source>The task names no directions: each branch is the agent&apos;s own idea.</source>
        <translation>任务未指定方向：每个分支都是智能体自己的想法。</translation>
    </message>
    <message>
        <source>%1 &lt;i&gt;(b%2&apos;s direction)&lt;/i&gt;</source>
        <translation>%1 &lt;i&gt;（b%2 的方向）&lt;/i&gt;</translation>
    </message>
    <message numerus="yes">
        <source>The task&apos;s directions, given to branches in turn (branch b&lt;i&gt;N&lt;/i&gt; takes direction &lt;i&gt;N&lt;/i&gt; mod %n):</source>
        <translation>
            <numerusform>任务的方向，依次分配给各分支（分支 b&lt;i&gt;N&lt;/i&gt; 采用方向 &lt;i&gt;N&lt;/i&gt; mod %n）：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>Round %1 started a batch of %n attempt(s)</source>
        <translation>
            <numerusform>第 %1 轮启动了一个包含 %n 次尝试的批次</numerusform>
        </translation>
    </message>
    <message>
        <source>Iteration %1 (%2, %3, %4)</source>
        <translation>迭代 %1（%2，%3，%4）</translation>
    </message>
    <message numerus="yes">
        <source>%n cell(s)</source>
        <translation>
            <numerusform>%n 个单元</numerusform>
        </translation>
    </message>
    <message>
        <source>Iteration %1 %2 in another process (pid %3): %4</source>
        <translation>迭代 %1 在另一个进程（pid %3）中 %2：%4</translation>
    </message>
    <message>
        <source>Iteration %1 %2: %3 in %4</source>
        <translation>迭代 %1 %2：%4，%3</translation>
    </message>
    <message numerus="yes">
        <source>%n round(s)</source>
        <translation>
            <numerusform>%n 轮</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 (%2)</source>
        <translation>%1（%2）</translation>
    </message>
    <message>
        <source>Kill %1 (stalled)…</source>
        <translation>终止 %1（已停滞）…</translation>
    </message>
    <message>
        <source>Kill %1…</source>
        <translation>终止 %1…</translation>
    </message>
    <message>
        <source>Kill</source>
        <translation>终止</translation>
    </message>
    <message>
        <source>Why kill %1? (stored with the failure)</source>
        <translation>为何终止 %1？（随失败记录保存）</translation>
    </message>
    <message>
        <source>Resume</source>
        <translation>恢复</translation>
    </message>
    <message>
        <source>Iteration to resume:</source>
        <translation>要恢复的迭代：</translation>
    </message>
    <message>
        <source>Iteration %1 is stalled: %2. Right-click a stalled attempt&apos;s branch to kill it.</source>
        <translation>第 %1 次迭代停滞：%2。右键单击停滞尝试所在的分支可将其终止。</translation>
    </message>
    <message numerus="yes">
        <source>Iteration %1 is live: %n attempt(s) running</source>
        <translation>
            <numerusform>第 %1 次迭代运行中：%n 个尝试正在运行</numerusform>
        </translation>
    </message>
    <message>
        <source>Not offered: %1</source>
        <translation>不可用：%1</translation>
    </message>
    <message>
        <source>Iteration %1 is stalled: %2. Its round takes no steering: no attempt can be killed from here.</source>
        <translation>第 %1 次迭代停滞：%2。其轮次不接受引导：无法在此终止任何尝试。</translation>
    </message>
    <message>
        <source>The served project at %1 runs no round now: its next round is followed here as it runs.</source>
        <translation>%1 提供的项目当前没有运行轮次：其下一轮运行时将在此跟随。</translation>
    </message>
    <message>
        <source>Read-only: the project served at %1; waiting for its round</source>
        <translation>只读：%1 提供的项目；正在等待其轮次</translation>
    </message>
    <message>
        <source>Waiting for %1</source>
        <translation>正在等待 %1</translation>
    </message>
    <message>
        <source>Following iteration %1, a round running at %2 (remote); read-only</source>
        <translation>正在跟随迭代 %1，一个在 %2（远程）运行的轮次；只读</translation>
    </message>
    <message>
        <source>Following %1</source>
        <translation>正在跟随 %1</translation>
    </message>
    <message>
        <source>Iteration %1 %2 at %3: %4</source>
        <translation>迭代 %1 在 %3 %2：%4</translation>
    </message>
    <message>
        <source>A resumed iteration keeps its own task</source>
        <translation>恢复的迭代沿用其自身的任务</translation>
    </message>
    <message>
        <source>Branch b%1</source>
        <translation>分支 b%1</translation>
    </message>
</context>
<context>
    <name>dreamrsi::RoundStatus</name>
    <message numerus="yes">
        <source>%n attempt(s)</source>
        <translation>
            <numerusform>%n 次尝试</numerusform>
        </translation>
    </message>
    <message>
        <source>Attempts finished; how many the round will run is not known yet</source>
        <translation>已完成的尝试；本轮将运行多少次尚不可知</translation>
    </message>
    <message>
        <source>%1 of %2 attempts</source>
        <translation>%1 / %2 次尝试</translation>
    </message>
    <message>
        <source>Attempts finished against the most the round can run (its grid, round limit and call budget)</source>
        <translation>已完成的尝试与本轮最多可运行次数（网格、轮数上限和调用预算）之比</translation>
    </message>
</context>
<context>
    <name>dreamrsi::RunStructureView</name>
    <message>
        <source>No island</source>
        <translation>无岛屿</translation>
    </message>
    <message>
        <source>Island %1</source>
        <translation>岛屿 %1</translation>
    </message>
    <message numerus="yes">
        <source>%n program(s)</source>
        <translation>
            <numerusform>%n 个程序</numerusform>
        </translation>
    </message>
    <message>
        <source>%1 · %2 · no score</source>
        <translation>%1 · %2 · 无分数</translation>
    </message>
    <message>
        <source>initial program</source>
        <translation>初始程序</translation>
    </message>
    <message>
        <source>%1 · %2 · best %3 (%4)</source>
        <translation>%1 · %2 · 最佳 %3（%4）</translation>
    </message>
    <message>
        <source>migrations: %1 in, %2 out</source>
        <translation>迁移：迁入 %1，迁出 %2</translation>
    </message>
    <message>
        <source>Parent to child (real parents, forks included)</source>
        <translation>父到子（真实父程序，含分叉）</translation>
    </message>
    <message>
        <source>Migration: parent on another island</source>
        <translation>迁移：父程序在另一岛屿</translation>
    </message>
    <message>
        <source>Best program</source>
        <translation>最佳程序</translation>
    </message>
    <message>
        <source>Failed: no score</source>
        <translation>失败：无分数</translation>
    </message>
    <message>
        <source>Rows: generation</source>
        <translation>行：代数</translation>
    </message>
    <message>
        <source>Score</source>
        <translation>得分</translation>
    </message>
    <message>
        <source>Score %1 … %2</source>
        <translation>分数 %1 … %2</translation>
    </message>
    <message>
        <source>No tree open</source>
        <translation>未打开树</translation>
    </message>
    <message>
        <source>%1 · score %2</source>
        <translation>%1 · 分数 %2</translation>
    </message>
    <message>
        <source>%1 · %2</source>
        <translation>%1 · %2</translation>
    </message>
    <message>
        <source>program %1</source>
        <translation>程序 %1</translation>
    </message>
    <message>
        <source>parent %1</source>
        <translation>父程序 %1</translation>
    </message>
    <message>
        <source>parent: the initial program</source>
        <translation>父程序：初始程序</translation>
    </message>
    <message>
        <source>parent missing from the run (orphan)</source>
        <translation>父程序不在运行中（孤儿）</translation>
    </message>
    <message>
        <source>generation %1</source>
        <translation>第 %1 代</translation>
    </message>
    <message>
        <source>island %1</source>
        <translation>岛屿 %1</translation>
    </message>
    <message>
        <source>migrated from island %1</source>
        <translation>从岛屿 %1 迁入</translation>
    </message>
    <message>
        <source>initial program · score %1</source>
        <translation>初始程序 · 分数 %1</translation>
    </message>
    <message>
        <source>gen %1</source>
        <translation>第 %1 代</translation>
    </message>
    <message>
        <source>%1 in, %2 out</source>
        <comment>migrations</comment>
        <translation>迁入 %1，迁出 %2</translation>
    </message>
</context>
<context>
    <name>dreamrsi::SettingsDialog</name>
    <message>
        <source>Settings</source>
        <translation>设置</translation>
    </message>
    <message>
        <source>Follow the system</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <source>Colour theme:</source>
        <translation>颜色主题：</translation>
    </message>
    <message>
        <source>W: the most attempts a policy may run in one round.</source>
        <translation>W：策略在一轮中最多可运行的尝试次数。</translation>
    </message>
    <message>
        <source>Parallel workers (W):</source>
        <translation>并行工作数（W）：</translation>
    </message>
    <message>
        <source>Weight of the parallelism penalty in the value.</source>
        <translation>并行度惩罚在值中的权重。</translation>
    </message>
    <message>
        <source>Penalty weight (λ):</source>
        <translation>惩罚权重（λ）：</translation>
    </message>
    <message>
        <source>Budget preferences of a sweep, comma separated, each in [0, 1].</source>
        <translation>扫描的预算偏好，用逗号分隔，每个值在 [0, 1] 之间。</translation>
    </message>
    <message>
        <source>β grid:</source>
        <translation>β 网格：</translation>
    </message>
    <message>
        <source> ms</source>
        <translation> 毫秒</translation>
    </message>
    <message>
        <source>Script time limit per call:</source>
        <translation>每次调用的脚本时间限制：</translation>
    </message>
    <message>
        <source>Stepper: time per round:</source>
        <translation>步进器：每轮时间：</translation>
    </message>
    <message>
        <source>The β grid must be a comma-separated list of numbers between 0 and 1.</source>
        <translation>β 网格必须是以逗号分隔的 0 到 1 之间的数字列表。</translation>
    </message>
    <message>
        <source> MiB</source>
        <translation> MiB</translation>
    </message>
    <message>
        <source>Replays run in a separate dreamrsi process; it is stopped when its address space grows past this.</source>
        <translation>回放在独立的 dreamrsi 进程中运行；其地址空间超过此值时进程将被终止。</translation>
    </message>
    <message>
        <source>Replay process memory limit:</source>
        <translation>回放进程内存上限：</translation>
    </message>
    <message>
        <source> s</source>
        <translation> 秒</translation>
    </message>
    <message>
        <source>A replay process still running after this long is stopped.</source>
        <translation>运行超过此时长的回放进程将被终止。</translation>
    </message>
    <message>
        <source>Replay process time limit:</source>
        <translation>回放进程时间上限：</translation>
    </message>
    <message>
        <source>Cluster (Slurm)</source>
        <translation>集群（Slurm）</translation>
    </message>
    <message>
        <source>the cluster&apos;s default partition</source>
        <translation>集群默认分区</translation>
    </message>
    <message>
        <source>Partition:</source>
        <translation>分区：</translation>
    </message>
    <message>
        <source>Account:</source>
        <translation>账户：</translation>
    </message>
    <message>
        <source>QOS:</source>
        <translation>QOS：</translation>
    </message>
    <message>
        <source>e.g. --constraint=avx2</source>
        <translation>例如 --constraint=avx2</translation>
    </message>
    <message>
        <source>Extra sbatch arguments:</source>
        <translation>额外 sbatch 参数：</translation>
    </message>
    <message>
        <source>~/.cache/dreamrsi/slurm</source>
        <translation>~/.cache/dreamrsi/slurm</translation>
    </message>
    <message>
        <source>A directory every compute node sees at the same path.</source>
        <translation>所有计算节点均可通过相同路径访问的目录。</translation>
    </message>
    <message>
        <source>Shared work directory:</source>
        <translation>共享工作目录：</translation>
    </message>
    <message>
        <source>General</source>
        <translation>常规</translation>
    </message>
    <message>
        <source>Agents</source>
        <translation>智能体</translation>
    </message>
    <message>
        <source>Cluster</source>
        <translation>集群</translation>
    </message>
    <message>
        <source>API keys for this session</source>
        <translation>本次会话的 API 密钥</translation>
    </message>
    <message>
        <source>A key typed here is kept in memory until the workbench closes: it is never saved in the settings, a project, an export or a log. Leave a field empty to use the provider&apos;s environment variable.</source>
        <translation>在此输入的密钥仅保存在内存中，直到工作台关闭：它绝不会被保存到设置、项目、导出文件或日志中。字段留空则使用提供方的环境变量。</translation>
    </message>
    <message>
        <source>OpenAI-compatible:</source>
        <translation>OpenAI 兼容：</translation>
    </message>
    <message>
        <source>Anthropic:</source>
        <translation>Anthropic：</translation>
    </message>
    <message>
        <source>Gemini:</source>
        <translation>Gemini：</translation>
    </message>
    <message>
        <source>not set ($%1 is empty)</source>
        <translation>未设置（$%1 为空）</translation>
    </message>
    <message>
        <source>from $%1</source>
        <translation>来自 $%1</translation>
    </message>
    <message>
        <source>Prices (USD per million tokens)</source>
        <translation>价格（USD / 百万 Token）</translation>
    </message>
    <message>
        <source>Every agent call is priced with this table. A model that is not listed costs 0; a dated model name (&quot;claude-sonnet-4-5-20250929&quot;) takes the price of its family (&quot;claude-sonnet-4-5&quot;).</source>
        <translation>每次智能体调用都按此表计价。未列出的模型费用为 0；带日期的模型名（&quot;claude-sonnet-4-5-20250929&quot;）采用其所属系列（&quot;claude-sonnet-4-5&quot;）的价格。</translation>
    </message>
    <message>
        <source>Model</source>
        <translation>模型</translation>
    </message>
    <message>
        <source>Input $/M</source>
        <translation>输入 $/M</translation>
    </message>
    <message>
        <source>Output $/M</source>
        <translation>输出 $/M</translation>
    </message>
    <message>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <source>Restore defaults</source>
        <translation>恢复默认值</translation>
    </message>
    <message>
        <source>new-model</source>
        <translation>new-model</translation>
    </message>
    <message>
        <source>Row %1 of the price table has no model name.</source>
        <translation>价格表第 %1 行没有模型名称。</translation>
    </message>
    <message>
        <source>The price table lists the model &quot;%1&quot; twice.</source>
        <translation>价格表中模型“%1”出现了两次。</translation>
    </message>
    <message>
        <source>The %1 price of &quot;%2&quot; must be a number of dollars, 0 or more.</source>
        <translation>“%2”的%1价格必须是不小于 0 的美元金额。</translation>
    </message>
    <message>
        <source>input</source>
        <translation>输入</translation>
    </message>
    <message>
        <source>output</source>
        <translation>输出</translation>
    </message>
    <message>
        <source>Extra sbatch arguments: %1</source>
        <translation>额外 sbatch 参数：%1</translation>
    </message>
    <message>
        <source>Recorded with every intervention you make in a live round and every approval.</source>
        <translation>会随您在实时轮次中的每次干预和每次批准一同记录。</translation>
    </message>
    <message>
        <source>Your name:</source>
        <translation>您的姓名：</translation>
    </message>
    <message>
        <source>Replays of tree files (no project is open):</source>
        <translation>树文件的重放（未打开项目）：</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>K: the most rounds a replayed episode may take.</source>
        <translation>K：一个重放回合最多可进行的轮数。</translation>
    </message>
    <message>
        <source>Round limit (K):</source>
        <translation>轮数上限（K）：</translation>
    </message>
    <message>
        <source>Replay configuration of the project %1: its dreams, replays, values, approvals and plots all use it. Values computed under another configuration are kept, but not compared with these.</source>
        <translation>项目 %1 的重放配置：其梦境推演、重放、值、批准和图表均使用此配置。在其他配置下计算的值会保留，但不与这些值比较。</translation>
    </message>
    <message>
        <source>Imagined completions</source>
        <translation>想象补全</translation>
    </message>
    <message>
        <source>Revealed history</source>
        <translation>已揭示历史</translation>
    </message>
    <message>
        <source>What a dream values a version over: C imagined completions of every history world (cells the deployed policy never revealed drawn from a model of the history), or the history worlds as they were revealed.</source>
        <translation>梦境推演评估版本所基于的对象：每个历史世界的 C 个想象补全（已部署策略从未揭示的单元从基于历史拟合的模型中抽取），或按揭示时原样的历史世界。</translation>
    </message>
    <message>
        <source>Valuation:</source>
        <translation>估值方式：</translation>
    </message>
    <message>
        <source>C: the imagined completions drawn of each history world.</source>
        <translation>C：为每个历史世界抽取的想象补全数。</translation>
    </message>
    <message>
        <source>Completions (C):</source>
        <translation>补全数（C）：</translation>
    </message>
    <message>
        <source>Include approximate worlds</source>
        <translation>包含近似世界</translation>
    </message>
    <message>
        <source>Imported runs with forks or orphans only approximate their genealogy as chains: a fork is replayed as a new idea. Replays and dreams leave them out unless this is checked; results over them are labelled.</source>
        <translation>含分叉或孤儿的导入运行只能将其谱系近似为链：分叉会作为新想法重放。除非勾选此项，重放和梦境推演都会排除它们；基于它们的结果会加以标注。</translation>
    </message>
    <message>
        <source> min</source>
        <translation> 分钟</translation>
    </message>
    <message>
        <source>An agent call of a round still at work after this long is killed and its attempt stored as an agent failure. Launch Round starts from this value.</source>
        <translation>一轮中超过此时长仍在运行的智能体调用将被终止，其尝试记为智能体失败。“启动轮次”以此值为初始值。</translation>
    </message>
    <message>
        <source>Agent time limit per call:</source>
        <translation>每次调用的智能体时限：</translation>
    </message>
    <message>
        <source>Capped at the history&apos;s best</source>
        <translation>以历史最佳为上限</translation>
    </message>
    <message>
        <source>Widened where the history is blind</source>
        <translation>在历史无证据处放宽</translation>
    </message>
    <message>
        <source>Imagination rule:</source>
        <translation>想象规则：</translation>
    </message>
    <message>
        <source>Uncertain where the history is blind</source>
        <translation>在历史无证据处保持不确定</translation>
    </message>
    <message>
        <source>Uncertain near the deepest gain</source>
        <translation>在最深增益附近保持不确定</translation>
    </message>
    <message>
        <source>How imagined scores are drawn where the history holds no evidence: capped at the best score the history revealed; widened: at a depth with too few values, allowed up to that best plus the largest gain the task has shown; uncertain: at such a depth, a gain drawn from a prior as wide as the task&apos;s first scores are spread; anchored: the same, but only within %1 attempts of the deepest depth where the history gained, capped further out. Values drawn under another rule are kept apart.</source>
        <translation>在历史没有证据之处如何抽取想象得分：capped（封顶）以历史揭示的最佳得分为上限；widened（放宽）在数值过少的深度允许达到该最佳值加上任务中出现过的最大增益；uncertain（不确定）在这样的深度从先验中抽取增益，先验的宽度与任务首次尝试得分的分散程度相当；anchored（锚定）与之相同，但只在历史出现增益的最深深度之后 %1 次尝试以内，更深处则封顶。在另一规则下抽取的值会分开保存。</translation>
    </message>
</context>
<context>
    <name>dreamrsi::ShortcutsDialog</name>
    <message>
        <source>Keyboard Shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <source>Menu</source>
        <translation>菜单</translation>
    </message>
    <message>
        <source>Action</source>
        <translation>操作</translation>
    </message>
    <message>
        <source>Shortcut</source>
        <translation>快捷键</translation>
    </message>
    <message>
        <source>Tree view</source>
        <translation>树视图</translation>
    </message>
    <message>
        <source>Fit the tree to the view</source>
        <translation>使树适应视图</translation>
    </message>
    <message>
        <source>Zoom in, zoom out</source>
        <translation>放大、缩小</translation>
    </message>
</context>
<context>
    <name>dreamrsi::SimulationDialog</name>
    <message>
        <source>Simulate the Loop</source>
        <translation>模拟循环</translation>
    </message>
    <message>
        <source>Runs the recursive loop with recorded worlds standing in for the discovery agent: iteration t deploys the current policy on world t as one replay episode, only the cells it revealed join the history, and a dream over that history picks the next policy. Fixed exploration keeps the starting policy. Exact and cheap, so it can be repeated over many world orders.</source>
        <translation>以已记录的世界代替发现智能体来运行递归循环：第 t 次迭代将当前策略作为一个重放回合部署到世界 t 上，只有它揭示的单元才会加入历史，再由基于该历史的梦境推演选出下一个策略。固定探索则始终保留初始策略。该模拟精确且开销低，因此可以按多种世界顺序重复运行。</translation>
    </message>
    <message numerus="yes">
        <source>The open project&apos;s worlds (%n)</source>
        <translation>
            <numerusform>已打开项目的世界（%n）</numerusform>
        </translation>
    </message>
    <message>
        <source>Tree files in a folder:</source>
        <translation>文件夹中的树文件：</translation>
    </message>
    <message>
        <source>Browse…</source>
        <translation>浏览…</translation>
    </message>
    <message>
        <source>no limit</source>
        <translation>不限</translation>
    </message>
    <message>
        <source>Fixed β</source>
        <translation>固定 β</translation>
    </message>
    <message>
        <source>Dream-RSI against fixed exploration</source>
        <translation>Dream-RSI 对比固定探索</translation>
    </message>
    <message>
        <source>Dream-RSI only</source>
        <translation>仅 Dream-RSI</translation>
    </message>
    <message>
        <source>Fixed exploration only</source>
        <translation>仅固定探索</translation>
    </message>
    <message>
        <source>Also run Dream-RSI with the quality guard</source>
        <translation>同时运行带质量保护的 Dream-RSI</translation>
    </message>
    <message>
        <source>A proposal that reaches less of the history&apos;s quality than the deployed version (at the deployment β) is refused for the best version that does not</source>
        <translation>若提案（在部署时的 β 下）达到的历史质量低于已部署版本，则拒绝该提案，改用未低于已部署版本的最佳版本</translation>
    </message>
    <message>
        <source>Worlds:</source>
        <translation>世界：</translation>
    </message>
    <message>
        <source>Iterations (T):</source>
        <translation>迭代次数（T）：</translation>
    </message>
    <message>
        <source>Versions per dream (M):</source>
        <translation>每次梦境推演的版本数（M）：</translation>
    </message>
    <message>
        <source>Workers (W):</source>
        <translation>并行工作数（W）：</translation>
    </message>
    <message>
        <source>Round limit (K):</source>
        <translation>轮数上限（K）：</translation>
    </message>
    <message>
        <source>Budget preference:</source>
        <translation>预算偏好：</translation>
    </message>
    <message>
        <source>Seed:</source>
        <translation>种子：</translation>
    </message>
    <message>
        <source>Repeats:</source>
        <translation>重复次数：</translation>
    </message>
    <message>
        <source>Starting policy:</source>
        <translation>初始策略：</translation>
    </message>
    <message>
        <source>Arms:</source>
        <translation>实验组：</translation>
    </message>
    <message>
        <source>&amp;Start</source>
        <translation>开始(&amp;S)</translation>
    </message>
    <message>
        <source>S&amp;top</source>
        <translation>停止(&amp;T)</translation>
    </message>
    <message>
        <source>Folder of Tree Files</source>
        <translation>树文件所在文件夹</translation>
    </message>
    <message numerus="yes">
        <source>%n world(s) to draw from.</source>
        <translation>
            <numerusform>可供抽取的世界共 %n 个。</numerusform>
        </translation>
    </message>
    <message>
        <source>Choose a folder of tree files (*.json), or open a project with finished iterations.</source>
        <translation>请选择包含树文件（*.json）的文件夹，或打开一个含有已完成迭代的项目。</translation>
    </message>
    <message>
        <source>Stopping after the current iteration…</source>
        <translation>将在当前迭代结束后停止…</translation>
    </message>
    <message>
        <source>%1 of %2 iterations simulated.</source>
        <translation>已模拟 %2 次迭代中的 %1 次。</translation>
    </message>
    <message>
        <source>Simulating…</source>
        <translation>正在模拟…</translation>
    </message>
    <message>
        <source>The simulation could not run: %1</source>
        <translation>模拟无法运行：%1</translation>
    </message>
    <message>
        <source>Stopped before any iteration finished.</source>
        <translation>在任何迭代完成之前已停止。</translation>
    </message>
    <message>
        <source>The simulation gave no result: %1</source>
        <translation>模拟未产生结果：%1</translation>
    </message>
    <message>
        <source> Stored as %1.</source>
        <translation> 已保存为 %1。</translation>
    </message>
    <message>
        <source> It could not be stored: %1</source>
        <translation> 无法保存：%1</translation>
    </message>
    <message>
        <source>Stopped; the runs so far are shown in the Progress tab.</source>
        <translation>已停止；目前的运行结果显示在“进展”标签页中。</translation>
    </message>
    <message>
        <source>Done; the result is shown in the Progress tab.</source>
        <translation>已完成；结果显示在“进展”标签页中。</translation>
    </message>
    <message>
        <source>Simulation (stopped)</source>
        <translation>模拟（已停止）</translation>
    </message>
    <message>
        <source>Simulation</source>
        <translation>模拟</translation>
    </message>
    <message>
        <source>&lt;b&gt;Developer:&lt;/b&gt; new versions are written by the built-in policy improver (no key, no cost).</source>
        <translation>&lt;b&gt;开发者：&lt;/b&gt;新版本由内置策略改进器编写（无需密钥，没有成本）。</translation>
    </message>
    <message>
        <source>Oracle: the complete recorded worlds</source>
        <translation>Oracle：已记录的完整世界</translation>
    </message>
    <message>
        <source>What the dreams value versions over: imagined completions of the revealed worlds, the history as revealed, or (known only here, where the worlds are recorded) the complete worlds behind it. The default is the project&apos;s.</source>
        <translation>梦境推演评估版本所基于的对象：已揭示世界的想象补全、按揭示时原样的历史，或其背后的完整世界（仅在此处可知，因为这些世界是完整记录的）。默认使用项目的设置。</translation>
    </message>
    <message>
        <source>Dreams value versions over:</source>
        <translation>梦境推演的估值依据：</translation>
    </message>
    <message>
        <source>the project&apos;s</source>
        <translation>项目设置</translation>
    </message>
    <message>
        <source>the default</source>
        <translation>默认值</translation>
    </message>
    <message>
        <source>Imagined completions, C %1 (%2)</source>
        <translation>想象补全，C %1（%2）</translation>
    </message>
    <message>
        <source>Imagined completions, C %1</source>
        <translation>想象补全，C %1</translation>
    </message>
    <message>
        <source>The history as revealed (%1)</source>
        <translation>已揭示历史（%1）</translation>
    </message>
    <message>
        <source>The history as revealed</source>
        <translation>已揭示历史</translation>
    </message>
    <message>
        <source> (no project configuration read; a new project&apos;s is %1)</source>
        <translation>（未读取项目配置；新项目的配置为 %1）</translation>
    </message>
    <message>
        <source> (the project&apos;s)</source>
        <translation>（项目的配置）</translation>
    </message>
    <message>
        <source> (overrides the project&apos;s %1 for this simulation)</source>
        <translation>（本次模拟覆盖项目的 %1）</translation>
    </message>
    <message>
        <source>Dreams keep the hardest world (floor check)</source>
        <translation>梦境守住最难的世界（底线检查）</translation>
    </message>
    <message>
        <source>A dream proposes only a version that reaches, on its hardest history world at the deployment β, what the starting policy reaches on its own hardest world</source>
        <translation>梦境只提议这样的版本：它在部署 β 下于自己最难的历史世界上达到的水平，不低于起始策略在其自身最难世界上达到的水平</translation>
    </message>
    <message>
        <source>The project&apos;s replay configuration could not be read (%1); the defaults apply.</source>
        <translation>无法读取项目的回放配置（%1）；使用默认值。</translation>
    </message>
</context>
<context>
    <name>dreamrsi::SimulationPlot</name>
    <message>
        <source>Dream-RSI</source>
        <translation>Dream-RSI</translation>
    </message>
    <message>
        <source>Dream-RSI, guarded</source>
        <translation>Dream-RSI（带保护）</translation>
    </message>
    <message>
        <source>Fixed exploration</source>
        <translation>固定探索</translation>
    </message>
    <message>
        <source>Attainment (mean, 95 % CI)</source>
        <translation>达成度（均值，95 % 置信区间）</translation>
    </message>
    <message>
        <source>Attainment</source>
        <translation>达成度</translation>
    </message>
    <message>
        <source>Iteration</source>
        <translation>迭代</translation>
    </message>
    <message>
        <source>Cumulative agent calls</source>
        <translation>累计智能体调用次数</translation>
    </message>
    <message>
        <source>Calls</source>
        <translation>调用次数</translation>
    </message>
    <message>
        <source>%1 (%2 repeats)</source>
        <translation>%1（%2 次重复）</translation>
    </message>
    <message>
        <source>Arm</source>
        <translation>实验组</translation>
    </message>
    <message>
        <source>Repeats</source>
        <translation>重复次数</translation>
    </message>
    <message>
        <source>Calls per iteration</source>
        <translation>每次迭代的调用次数</translation>
    </message>
    <message>
        <source>Total calls</source>
        <translation>总调用次数</translation>
    </message>
    <message>
        <source>Calls to reach fixed best</source>
        <translation>达到固定探索最佳所需调用次数</translation>
    </message>
    <message>
        <source>%1 (%2 of %3 repeats)</source>
        <translation>%1（%3 次重复中的 %2 次）</translation>
    </message>
    <message>
        <source>never (%1 repeats)</source>
        <translation>从未达到（%1 次重复）</translation>
    </message>
    <message>
        <source>Dream-RSI, revealed</source>
        <translation>Dream-RSI（已揭示历史）</translation>
    </message>
    <message>
        <source>Dream-RSI, oracle</source>
        <translation>Dream-RSI（完整世界估值）</translation>
    </message>
    <message>
        <source>Dream-RSI, no probes</source>
        <translation>Dream-RSI（无探测）</translation>
    </message>
    <message>
        <source>Dream-RSI, widened rule</source>
        <translation>Dream-RSI（放宽规则）</translation>
    </message>
    <message>
        <source>Fixed exploration + probes</source>
        <translation>固定探索 + 探测</translation>
    </message>
    <message>
        <source>Dream-RSI, uncertain rule</source>
        <translation>Dream-RSI（不确定规则）</translation>
    </message>
    <message>
        <source>Dream-RSI, anchored rule</source>
        <translation>Dream-RSI（锚定规则）</translation>
    </message>
</context>
<context>
    <name>dreamrsi::SteeringController</name>
    <message>
        <source>the workbench left the project before the answer came</source>
        <translation>工作台在收到答复前已离开项目</translation>
    </message>
    <message>
        <source>no project is open</source>
        <translation>未打开项目</translation>
    </message>
    <message>
        <source>not answered: %1; the request was taken back</source>
        <translation>未答复：%1；请求已撤回</translation>
    </message>
</context>
<context>
    <name>dreamrsi::SweepRunner</name>
    <message>
        <source>Every open world is approximate (an imported run with forks or orphans); Settings ▸ Include approximate worlds replays them.</source>
        <translation>所有已打开的世界都是近似世界（含分叉或孤儿的导入运行）；启用 设置 ▸ 包含近似世界 后即可重放它们。</translation>
    </message>
</context>
<context>
    <name>dreamrsi::TreeView</name>
    <message>
        <source>No tree open.
Open a tree file or a project, or drop a tree file here.</source>
        <translation>没有打开的树。
请打开树文件或项目，或将树文件拖放到此处。</translation>
    </message>
    <message>
        <source>Branch %1, attempt %2, seq %3</source>
        <translation>分支 %1，尝试 %2，序号 %3</translation>
    </message>
    <message>
        <source>Score: %1</source>
        <translation>得分：%1</translation>
    </message>
    <message>
        <source>none</source>
        <translation>无</translation>
    </message>
    <message>
        <source>Outcome: %1</source>
        <translation>结果：%1</translation>
    </message>
    <message>
        <source>Tests passed: %1/%2</source>
        <translation>通过的测试：%1/%2</translation>
    </message>
    <message>
        <source>Tags: %1</source>
        <translation>标签：%1</translation>
    </message>
    <message>
        <source>Best cell of the tree</source>
        <translation>树的最佳单元</translation>
    </message>
    <message>
        <source>Revealed in round %1</source>
        <translation>在第 %1 轮揭示</translation>
    </message>
    <message>
        <source>Running for %1</source>
        <translation>已运行 %1</translation>
    </message>
    <message>
        <source>⚠ Stalled: right-click to kill it</source>
        <translation>⚠ 已停滞：右键单击以终止</translation>
    </message>
    <message>
        <source>failure, class not drawn by the world model</source>
        <translation>失败，世界模型未抽取其类别</translation>
    </message>
</context>
<context>
    <name>dreamrsi::UserGuideDialog</name>
    <message>
        <source>User Guide</source>
        <translation>用户指南</translation>
    </message>
    <message>
        <source>&amp;Back</source>
        <translation>后退(&amp;B)</translation>
    </message>
    <message>
        <source>&amp;Forward</source>
        <translation>前进(&amp;F)</translation>
    </message>
    <message>
        <source>&amp;Contents</source>
        <translation>目录(&amp;C)</translation>
    </message>
    <message>
        <source>Back to the README, the guide&apos;s first page</source>
        <translation>回到 README，即指南的第一页</translation>
    </message>
</context>
<context>
    <name>dreamrsi::WorldModelPage</name>
    <message>
        <source>Which part of the world model the figure shows (every number is in the table below)</source>
        <translation>图中显示世界模型的哪一部分（所有数值都在下方表格中）</translation>
    </message>
    <message>
        <source>No history world: the world model is fitted over the project&apos;s finished iterations. Open a project with iterations.</source>
        <translation>没有历史世界：世界模型基于项目已完成的迭代拟合。请打开一个含有迭代的项目。</translation>
    </message>
    <message>
        <source>directions from the cells&apos; tags</source>
        <translation>方向取自单元的标签</translation>
    </message>
    <message>
        <source>directions %1</source>
        <translation>方向 %1</translation>
    </message>
    <message>
        <source>a stratum with fewer than %1 values falls back to a wider one</source>
        <translation>值少于 %1 个的层会退回到更宽的层</translation>
    </message>
    <message>
        <source>cap &lt;b&gt;%1&lt;/b&gt;</source>
        <translation>上限 &lt;b&gt;%1&lt;/b&gt;</translation>
    </message>
    <message>
        <source>no cap (no ok score)</source>
        <translation>无上限（没有成功的得分）</translation>
    </message>
    <message>
        <source>cap off</source>
        <translation>上限已关闭</translation>
    </message>
    <message>
        <source>Quantity</source>
        <translation>统计量</translation>
    </message>
    <message>
        <source>Stratum</source>
        <translation>层</translation>
    </message>
    <message>
        <source>Depth</source>
        <translation>深度</translation>
    </message>
    <message>
        <source>Count</source>
        <translation>计数</translation>
    </message>
    <message>
        <source>Mean / rate</source>
        <translation>均值 / 比率</translation>
    </message>
    <message>
        <source>Min</source>
        <translation>最小值</translation>
    </message>
    <message>
        <source>Max</source>
        <translation>最大值</translation>
    </message>
    <message>
        <source>Failures</source>
        <translation>失败数</translation>
    </message>
    <message>
        <source>first-attempt scores</source>
        <translation>首次尝试得分</translation>
    </message>
    <message>
        <source>gain over the branch&apos;s best</source>
        <translation>相对分支最佳的增益</translation>
    </message>
    <message>
        <source>failure rate</source>
        <translation>失败率</translation>
    </message>
    <message>
        <source>cap</source>
        <translation>上限</translation>
    </message>
    <message>
        <source>World model — %1</source>
        <translation>世界模型 — %1</translation>
    </message>
    <message>
        <source>Whose model the page shows: a dream fits one model per task, each over the history worlds of that task only. Selecting a world in the Project panel shows the model of its task.</source>
        <translation>此页显示哪个任务的模型：梦境推演为每个任务拟合一个模型，每个模型只基于该任务自己的历史世界。在“项目”面板中选择一个世界即可显示其任务的模型。</translation>
    </message>
    <message>
        <source>After a deployment&apos;s episode, a few real calls go where the model is blind (docs/online.md, &quot;Probes&quot;): one attempt deeper on the best branch while that depth is blind, else the first attempt of an unopened branch whose direction is blind. Planned here on the newest world of the task, without making them.</source>
        <translation>一次部署的回合结束后，会在模型的盲区进行少量真实调用（见 docs/online.md 的“Probes”一节）：当最佳分支更深一层处于盲区时，在该分支上再深入一次尝试；否则对方向处于盲区的未开启分支进行首次尝试。此处在任务的最新世界上规划这些调用，但并不实际执行。</translation>
    </message>
    <message>
        <source>Task:</source>
        <translation>任务：</translation>
    </message>
    <message>
        <source>Figure:</source>
        <translation>图表：</translation>
    </message>
    <message>
        <source>no task</source>
        <translation>无任务</translation>
    </message>
    <message numerus="yes">
        <source>Fitting the world models over %n history world(s)…</source>
        <translation>
            <numerusform>正在基于 %n 个历史世界拟合世界模型…</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1 (%n world(s))</source>
        <translation>
            <numerusform>%1（%n 个世界）</numerusform>
        </translation>
    </message>
    <message>
        <source>The history worlds whose tree names no task</source>
        <translation>树中未指定任务的历史世界</translation>
    </message>
    <message numerus="yes">
        <source>No history world: the project&apos;s %n finished iteration(s) are approximate, and the dreams leave them out unless Settings ▸ Include approximate worlds takes them.</source>
        <translation>
            <numerusform>没有历史世界：项目已完成的 %n 次迭代都是近似世界，梦境推演会将其排除，除非启用 设置 ▸ 包含近似世界。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%1&lt;/b&gt;: fitted over &lt;b&gt;%n&lt;/b&gt; history world(s) of this task, as a dream fits it</source>
        <translation>
            <numerusform>&lt;b&gt;%1&lt;/b&gt;：与梦境推演的拟合方式相同，基于此任务的 &lt;b&gt;%n&lt;/b&gt; 个历史世界拟合</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n history world(s) of other tasks have their own model</source>
        <translation>
            <numerusform>其他任务的 %n 个历史世界有各自的模型</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%n approximate world(s) left out, as the dreams leave them out (Settings ▸ Include approximate worlds)</source>
        <translation>
            <numerusform>已排除 %n 个近似世界，与梦境推演相同（设置 ▸ 包含近似世界）</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>&lt;b&gt;%n&lt;/b&gt; blind row(s) in the table, up to depth %1</source>
        <translation>
            <numerusform>表中有 &lt;b&gt;%n&lt;/b&gt; 行处于盲区，深度最多到 %1</numerusform>
        </translation>
    </message>
    <message>
        <source>Evidence</source>
        <translation>证据</translation>
    </message>
    <message>
        <source>&quot;blind&quot;: fewer than NMIN values here and a draw falls back to another stratum (docs/online.md, &quot;Blind strata&quot;); &quot;pooled&quot;: too few values in this direction, the draw uses the pooled stratum at the same depth</source>
        <translation>“盲区”：此处的值少于 NMIN 个，抽取时退回到另一个层（见 docs/online.md 的“Blind strata”一节）；“合并”：此方向的值太少，抽取时使用同一深度的合并层</translation>
    </message>
    <message>
        <source>Blind: fewer than %1 first-attempt scores in the whole history of this task, so every first score is drawn from these few values (0 when there are none).</source>
        <translation>盲区：此任务的整个历史中首次尝试得分少于 %1 个，因此每个首次得分都从这几个值中抽取（没有值时为 0）。</translation>
    </message>
    <message>
        <source>Blind: fewer than %1 first-attempt scores in this direction, so its branches&apos; first scores are drawn from the pooled stratum. A probe on an unopened branch of this direction fills it.</source>
        <translation>盲区：此方向的首次尝试得分少于 %1 个，因此其分支的首次得分从合并层中抽取。对此方向的一个未开启分支进行探测即可填补。</translation>
    </message>
    <message>
        <source>Blind: fewer than %1 gains at depth %2 in this stratum and in the pool, so a gain at this depth is drawn from another depth&apos;s gains: the model knows nothing of depth %2. The widened imagination rule keeps such a depth uncertain instead of capped; a probe one attempt deeper on the best branch fills it.</source>
        <translation>盲区：此层和合并层中深度 %2 处的增益都少于 %1 个，因此此深度的增益从其他深度的增益中抽取：模型对深度 %2 一无所知。放宽的想象规则让这样的深度保持不确定，而不是受上限约束；在最佳分支上再深入一次尝试的探测即可填补。</translation>
    </message>
    <message>
        <source>Fewer than %1 gains at depth %2 in this direction: a gain here is drawn from the pooled stratum&apos;s gains at the same depth.</source>
        <translation>此方向在深度 %2 处的增益少于 %1 个：此处的增益从合并层同一深度的增益中抽取。</translation>
    </message>
    <message>
        <source>blind</source>
        <translation>盲区</translation>
    </message>
    <message>
        <source>pooled</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>Probes the next deployment would make: none without a history world.</source>
        <translation>下一次部署将进行的探测：没有历史世界，因此没有探测。</translation>
    </message>
    <message numerus="yes">
        <source>Probes the next deployment would make (--probe auto: at most %n call(s)), planned on %1, the newest world of this task:</source>
        <translation>
            <numerusform>下一次部署将进行的探测（--probe auto：最多 %n 次调用），在此任务的最新世界 %1 上规划：</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: one attempt deeper on branch %2, the best branch; depth %3 had %n gain(s)</source>
        <translation>
            <numerusform>%1：在最佳分支 %2 上再深入一次尝试；深度 %3 有 %n 个增益</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: one attempt deeper on branch %2, the best branch; depth %3 of %4 had %n gain(s)</source>
        <translation>
            <numerusform>%1：在最佳分支 %2 上再深入一次尝试；%4 方向的深度 %3 有 %n 个增益</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: first attempt of unopened branch %2; first attempts had %n value(s)</source>
        <translation>
            <numerusform>%1：未开启分支 %2 的首次尝试；首次尝试有 %n 个值</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <source>%1: first attempt of unopened branch %2; first attempts of %3 had %n value(s)</source>
        <translation>
            <numerusform>%1：未开启分支 %2 的首次尝试；%3 方向的首次尝试有 %n 个值</numerusform>
        </translation>
    </message>
    <message>
        <source>The probe cell would be tagged &quot;probe&quot; with probe_reason &quot;%1&quot;.</source>
        <translation>该探测单元将带有标签 &quot;probe&quot;，其 probe_reason 为 &quot;%1&quot;。</translation>
    </message>
    <message>
        <source>none: nothing the grid allows is blind</source>
        <translation>无：网格允许的范围内没有盲区</translation>
    </message>
    <message>
        <source>World model of %1 — %2</source>
        <translation>%1 的世界模型 — %2</translation>
    </message>
    <message>
        <source>deepest gain at depth %1 (the anchored rule keeps blind depths up to %2 uncertain)</source>
        <translation>最深增益在深度 %1（锚定规则让直到深度 %2 的盲深度保持不确定）</translation>
    </message>
    <message>
        <source>no gain yet over a branch&apos;s best (the anchored rule keeps blind depths up to %1 uncertain)</source>
        <translation>尚无超过分支最佳值的增益（锚定规则让直到深度 %1 的盲深度保持不确定）</translation>
    </message>
</context>
<context>
    <name>dreamrsi::WorldModelPlot</name>
    <message>
        <source>dashed: cap %1</source>
        <translation>虚线：上限 %1</translation>
    </message>
    <message>
        <source>First-attempt scores by direction</source>
        <translation>各方向的首次尝试得分</translation>
    </message>
    <message>
        <source>Gain over the branch&apos;s best by depth</source>
        <translation>各深度相对分支最佳的增益</translation>
    </message>
    <message>
        <source>Failure rate by depth (pooled)</source>
        <translation>各深度的失败率（合并）</translation>
    </message>
    <message>
        <source>pooled</source>
        <translation>合并</translation>
    </message>
    <message>
        <source>Direction (stratum)</source>
        <translation>方向（层）</translation>
    </message>
    <message>
        <source>First-attempt score</source>
        <translation>首次尝试得分</translation>
    </message>
    <message>
        <source>First score</source>
        <translation>首次得分</translation>
    </message>
    <message>
        <source>n = %1</source>
        <translation>n = %1</translation>
    </message>
    <message>
        <source>Attempt depth</source>
        <translation>尝试深度</translation>
    </message>
    <message>
        <source>Gain over the branch&apos;s best so far</source>
        <translation>相对分支迄今最佳的增益</translation>
    </message>
    <message>
        <source>Gain</source>
        <translation>增益</translation>
    </message>
    <message>
        <source>Failure rate</source>
        <translation>失败率</translation>
    </message>
    <message>
        <source>failure rate</source>
        <translation>失败率</translation>
    </message>
    <message>
        <source>dashed: depth ≥ 1, %1/%2 failed</source>
        <translation>虚线：深度 ≥ 1，失败 %1/%2</translation>
    </message>
</context>
<context>
    <name>dreamrsi::WorldOpener</name>
    <message>
        <source>Loading %1…</source>
        <translation>正在加载 %1…</translation>
    </message>
    <message>
        <source>Could not open %1</source>
        <translation>无法打开 %1</translation>
    </message>
    <message>
        <source>Cannot open tree</source>
        <translation>无法打开树</translation>
    </message>
    <message>
        <source>The file was rejected; nothing of it was loaded.</source>
        <translation>文件被拒绝；未加载其中任何内容。</translation>
    </message>
    <message>
        <source>Opened %1: %2 cells</source>
        <translation>已打开 %1：%2 个单元</translation>
    </message>
    <message>
        <source>Reading the run %1…</source>
        <translation>正在读取运行 %1…</translation>
    </message>
    <message>
        <source>Open Run</source>
        <translation>打开运行</translation>
    </message>
    <message>
        <source>The run %1 was rejected; nothing of it was loaded.</source>
        <translation>运行 %1 被拒绝；未加载其中任何内容。</translation>
    </message>
    <message>
        <source>The mean of all numeric metrics (OpenEvolve&apos;s own score)</source>
        <translation>所有数值指标的平均值（OpenEvolve 自身的得分）</translation>
    </message>
    <message>
        <source>Score by Which Metric?</source>
        <translation>按哪个指标评分？</translation>
    </message>
    <message>
        <source>%1 has no combined_score. Score its programs by:</source>
        <translation>%1 没有 combined_score。为其程序评分所用的指标：</translation>
    </message>
    <message>
        <source>%1 was not opened</source>
        <translation>%1 未打开</translation>
    </message>
    <message>
        <source>no metric was chosen to score by</source>
        <translation>未选择用于评分的指标</translation>
    </message>
    <message>
        <source>an approximate world (forks or orphans)</source>
        <translation>近似世界（含分叉或孤儿）</translation>
    </message>
    <message>
        <source>Cannot import tree</source>
        <translation>无法导入树</translation>
    </message>
</context>
<context>
    <name>dreamrsi::WorldSelection</name>
    <message>
        <source>no world named &apos;%1&apos; (worlds: %2)</source>
        <translation>没有名为“%1”的世界（现有世界：%2）</translation>
    </message>
    <message>
        <source>no world is iteration %1</source>
        <translation>没有世界对应迭代 %1</translation>
    </message>
    <message>
        <source>iteration %1 is ambiguous: %2; give the world&apos;s name</source>
        <translation>迭代 %1 有歧义：%2；请指定世界名称</translation>
    </message>
</context>
<context>
    <name>main</name>
    <message>
        <source>Dream-RSI Workbench</source>
        <translation>Dream-RSI 工作台</translation>
    </message>
    <message>
        <source>Open the bundled demo project (a private copy in the user&apos;s data folder).</source>
        <translation>打开内置的演示项目（用户数据目录中的私有副本）。</translation>
    </message>
    <message>
        <source>Tree files or runs (OpenEvolve folders, ShinkaEvolve databases) to open, or one project (*.dreamrsi).</source>
        <translation>要打开的树文件或运行（OpenEvolve 文件夹、ShinkaEvolve 数据库），或一个项目（*.dreamrsi）。</translation>
    </message>
</context>
</TS>
