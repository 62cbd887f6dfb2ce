# Figures for papers: layout at single/double-column sizes in every format (offscreen).
dreamrsi_add_test(tst_figures SOURCES tst_figures.cpp LIBS dreamrsi::cli_render LABELS gui figures TIMEOUT 180)
# The export preview on a 72 DPI screen: text painted as large as it was measured.
add_test(NAME tst_figures_dpi72 COMMAND tst_figures exportPreviewTextApart)
set_tests_properties(tst_figures_dpi72 PROPERTIES LABELS "gui;figures" TIMEOUT 120
  ENVIRONMENT "QT_QPA_PLATFORM=offscreen;QT_FONT_DPI=72;DREAMRSI_SOURCE_DIR=${PROJECT_SOURCE_DIR}")
