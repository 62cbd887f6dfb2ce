# Replay engine, policies and the replay CLI (issue 3).
dreamrsi_add_test(tst_replay SOURCES tst_replay.cpp tst_replay_helpers.h
  LIBS dreamrsi::replay dreamrsi::policy dreamrsi::model LABELS replay TIMEOUT 300)
dreamrsi_add_test(tst_policy SOURCES tst_policy.cpp tst_replay_helpers.h
  LIBS dreamrsi::replay dreamrsi::policy dreamrsi::model LABELS replay policy TIMEOUT 300)
dreamrsi_add_test(tst_replay_cli SOURCES tst_replay_cli.cpp
  LIBS dreamrsi::replay dreamrsi::policy dreamrsi::model LABELS replay cli TIMEOUT 300)
add_dependencies(tst_replay_cli dreamrsi)
dreamrsi_add_test(tst_compactreplay SOURCES tst_compactreplay.cpp
  LIBS dreamrsi::replay dreamrsi::policy dreamrsi::model LABELS replay TIMEOUT 300)
