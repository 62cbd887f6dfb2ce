# Figures for papers: layout at single/double-column sizes in every format (offscreen).
dreamrsi_add_test(tst_figures SOURCES tst_figures.cpp LIBS dreamrsi::cli_render LABELS gui figures TIMEOUT 180)
