# GUI suites of the views library (offscreen). tst_mainwindow is registered in CMakeLists.txt.
dreamrsi_add_test(tst_gui_treeview SOURCES tst_gui_treeview.cpp LIBS dreamrsi::views LABELS gui TIMEOUT 120)
dreamrsi_add_test(tst_gui_inspector SOURCES tst_gui_inspector.cpp LIBS dreamrsi::views LABELS gui TIMEOUT 60)
dreamrsi_add_test(tst_gui_replay SOURCES tst_gui_replay.cpp LIBS dreamrsi::views LABELS gui TIMEOUT 240)
# Help ▸ User Guide: images drawn at most as wide as the viewer.
dreamrsi_add_test(tst_gui_userguide SOURCES tst_gui_userguide.cpp LIBS dreamrsi::views LABELS gui TIMEOUT 60)
dreamrsi_add_test(tst_gui_plot SOURCES tst_gui_plot.cpp LIBS dreamrsi::cli_render LABELS gui TIMEOUT 120)
dreamrsi_add_test(tst_gui_simulation SOURCES tst_gui_simulation.cpp LIBS dreamrsi::views dreamrsi::cli_render LABELS gui loop TIMEOUT 300)
# Imagined valuation in the workbench: Show imagined cells, the World Model page, valuation and C in Settings.
dreamrsi_add_test(tst_gui_imagination SOURCES tst_gui_imagination.cpp LIBS dreamrsi::views LABELS gui dream TIMEOUT 120)
# Every workbench string translated (zh_CN) and every %n string with its
# English plural forms: lupdate over today's sources into copies of the .ts files.
add_test(NAME tst_translations
  COMMAND sh ${CMAKE_CURRENT_SOURCE_DIR}/check-translations.sh $<TARGET_FILE:Qt6::lupdate>
          ${Qt6LinguistTools_DIR}/GenerateLUpdateProject.cmake
          ${CMAKE_BINARY_DIR}/app/.lupdate/dreamrsi-workbench_project.cmake ${PROJECT_SOURCE_DIR})
set_tests_properties(tst_translations PROPERTIES LABELS gui TIMEOUT 120)
# Every message of every shipped translation, in the .ts and in the .qm the
# build compiles from it: no markup the source lacks, the source's
# placeholders, never empty.
dreamrsi_add_test(tst_shipped_translations SOURCES tst_shipped_translations.cpp LABELS gui NO_PROGRAM TIMEOUT 60)
target_compile_definitions(tst_shipped_translations PRIVATE DREAMRSI_QM_DIR="${CMAKE_BINARY_DIR}/app")
add_dependencies(tst_shipped_translations dreamrsi-workbench_lrelease)
