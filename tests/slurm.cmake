# Slurm evaluation backend (issue 16) against a real single-node Slurm that
# the suite starts itself with packaging/slurm-test-cluster.sh: label `slurm`.
dreamrsi_add_test(tst_slurm SOURCES tst_slurm.cpp roundtestsupport.h
                  LIBS dreamrsi::loop dreamrsi::store LABELS slurm TIMEOUT 900)
add_dependencies(tst_slurm dreamrsi)
