# Dreaming (core/loop): the policy improver, the policy-development agent on
# a stand-in chat model, the dreamer over a project, `dreamrsi dream`.
dreamrsi_add_test(tst_dream SOURCES tst_dream.cpp
  LIBS dreamrsi::loop dreamrsi::store dreamrsi::replay dreamrsi::policy LABELS dream loop TIMEOUT 600)
# The Dreaming view: versions arrive in the table and the workspace; Cancel stops it.
dreamrsi_add_test(tst_gui_dreaming SOURCES tst_gui_dreaming.cpp LIBS dreamrsi::views LABELS dream gui TIMEOUT 600)
# The recursive loop and its fixed-exploration baseline on the toy task with a fake agent.
dreamrsi_add_test(tst_loop_dream SOURCES tst_loop_dream.cpp roundtestsupport.h
  LIBS dreamrsi::loop dreamrsi::store LABELS dream loop TIMEOUT 900)
# Imagined completions of history worlds and the imagined valuation: the test
# vectors reproduced by `dreamrsi imagine`, threads, the cap, value vs replay.
dreamrsi_add_test(tst_imagination SOURCES tst_imagination.cpp clirunsupport.h
  LIBS dreamrsi::loop dreamrsi::replay dreamrsi::model LABELS dream loop TIMEOUT 300)
# Dreams that can propose the frugal and the deep: no one-way tunable, both
# ends of the family, a behaviour valued once per dream, the oracle valuation.
dreamrsi_add_test(tst_proposals SOURCES tst_proposals.cpp clirunsupport.h
  LIBS dreamrsi::loop dreamrsi::replay dreamrsi::policy dreamrsi::model LABELS dream loop TIMEOUT 600)
# The frugality trap's remedies: probes where the world model is blind, the
# widened imagination rule, roots completed from their own direction, and
# proposals that must beat the completions' noise.
dreamrsi_add_test(tst_probes SOURCES tst_probes.cpp
  LIBS dreamrsi::loop dreamrsi::replay dreamrsi::policy dreamrsi::model LABELS dream loop TIMEOUT 600)
