"""Initial program for c3_autocorrelation: the constant step function.

With n equal heights the autoconvolution peaks at n·a² in the middle, so
C3 = 2n · n / n² = 2 exactly: the baseline any real construction must beat
(good ones use negative heights to cancel the peak).
"""
import json

n = 200
print(json.dumps({"heights": [1.0] * n}))
