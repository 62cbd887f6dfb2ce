# Live rounds (core/loop round runner, issue 13): suites labelled `loop`.
dreamrsi_add_test(tst_loop_round SOURCES tst_loop_round.cpp roundtestsupport.h
                  LIBS dreamrsi::loop dreamrsi::store LABELS loop TIMEOUT 300)

# A child process for the kill/resume test.
qt_add_executable(round_helper round_helper.cpp roundtestsupport.h)
set_target_properties(round_helper PROPERTIES RUNTIME_OUTPUT_DIRECTORY ${CMAKE_BINARY_DIR}/tests)
target_link_libraries(round_helper PRIVATE dreamrsi_settings dreamrsi::loop dreamrsi::store)

dreamrsi_add_test(tst_loop_resume SOURCES tst_loop_resume.cpp
                  LIBS dreamrsi::store LABELS loop robustness TIMEOUT 900)
add_dependencies(tst_loop_resume round_helper)

dreamrsi_add_test(tst_gui_round SOURCES tst_gui_round.cpp roundtestsupport.h
                  LIBS dreamrsi::views LABELS loop gui TIMEOUT 300)

dreamrsi_add_test(tst_loop_cli SOURCES tst_loop_cli.cpp LIBS dreamrsi::store dreamrsi::loop LABELS loop cli TIMEOUT 600)

# Following a round that another process (round_helper) runs in the project.
dreamrsi_add_test(tst_gui_follow SOURCES tst_gui_follow.cpp
                  LIBS dreamrsi::views LABELS loop gui TIMEOUT 300)
add_dependencies(tst_gui_follow round_helper)

# The counterfactual loop (recorded worlds instead of the discovery agent).
dreamrsi_add_test(tst_counterfactual SOURCES tst_counterfactual.cpp clirunsupport.h
                  LIBS dreamrsi::loop LABELS loop cli TIMEOUT 600)
add_dependencies(tst_counterfactual dreamrsi)
# Steering a live round: interventions between batches, from this process
# and from a second one (dreamrsi steer), surviving a SIGKILL and resume.
dreamrsi_add_test(tst_loop_steering SOURCES tst_loop_steering.cpp roundtestsupport.h
                  LIBS dreamrsi::loop dreamrsi::store LABELS loop cli TIMEOUT 600)
add_dependencies(tst_loop_steering round_helper)

# Steering from the workbench: manual batches by clicking, interventions
# shown in the live tree, the approval bar answering a waiting loop.
dreamrsi_add_test(tst_gui_steering SOURCES tst_gui_steering.cpp looptestsupport.h roundtestsupport.h
                  LIBS dreamrsi::views LABELS loop gui TIMEOUT 600)

# The loop's approval gate: answered by `dreamrsi approve` from another process.
dreamrsi_add_test(tst_loop_approval SOURCES tst_loop_approval.cpp looptestsupport.h roundtestsupport.h
                  LIBS dreamrsi::loop dreamrsi::store LABELS loop cli TIMEOUT 600)

# Re-evaluating stored cells (issue 44 item 1): `dreamrsi reevaluate` on a
# task folder whose evaluator adds noise; the statistics and the t quantile.
dreamrsi_add_test(tst_reevaluate SOURCES tst_reevaluate.cpp roundtestsupport.h clirunsupport.h
                  LIBS dreamrsi::loop dreamrsi::store dreamrsi::cli LABELS loop cli TIMEOUT 300)
dreamrsi_add_test(tst_gui_reevaluate SOURCES tst_gui_reevaluate.cpp roundtestsupport.h
                  LIBS dreamrsi::views LABELS loop gui TIMEOUT 300)
