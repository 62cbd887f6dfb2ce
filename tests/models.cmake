# The item models of views/models/ without widgets: the suite links the
# models library only (no dreamrsi::views, no Qt6::Widgets) and checks each
# model with QAbstractItemModelTester.
dreamrsi_add_test(tst_models SOURCES tst_models.cpp LIBS dreamrsi::models LABELS model TIMEOUT 60 NO_PROGRAM)
