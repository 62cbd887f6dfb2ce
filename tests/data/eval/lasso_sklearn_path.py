#!/usr/bin/env python3
"""scikit-learn's lasso_path at its defaults on lasso_path problem files.

For tst_lassooracle, which checks the evaluator's C++ oracle
(LassoSolver::solveLikeScikitLearn) against the real thing.

usage: lasso_sklearn_path.py INPUT OUTPUT [INPUT OUTPUT ...]

INPUT is the task's wire format (int32 n, p, n_lambda, float64 X row-major,
y, λ path). The path is computed on scikit-learn's own grid,
lasso_path(X, y, eps=0.01, n_alphas=n_lambda), every other argument left at
its default. OUTPUT gets, little-endian: float64 alphas (n_lambda), float64
coefficients (p·n_lambda, column k = alphas[k]), float64 dual gaps
(n_lambda), int32 iterations (n_lambda).
"""
import sys
import warnings

import numpy as np
from sklearn.exceptions import ConvergenceWarning
from sklearn.linear_model import lasso_path


def read_problem(path):
    with open(path, "rb") as f:
        data = f.read()
    n, p, k = (int(v) for v in np.frombuffer(data, dtype="<i4", count=3))
    offset = 12
    X = np.frombuffer(data, dtype="<f8", count=n * p, offset=offset).reshape(n, p)
    offset += 8 * n * p
    y = np.frombuffer(data, dtype="<f8", count=n, offset=offset)
    return np.array(X), np.array(y), k


def main(argv):
    if len(argv) < 3 or len(argv) % 2 != 1:
        sys.stderr.write(__doc__)
        return 2
    for source, target in zip(argv[1::2], argv[2::2]):
        X, y, k = read_problem(source)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ConvergenceWarning)
            alphas, coefs, gaps, n_iter = lasso_path(X, y, eps=0.01, n_alphas=k, return_n_iter=True)
        with open(target, "wb") as f:
            f.write(np.asarray(alphas, dtype="<f8").tobytes())
            f.write(np.asarray(coefs, dtype="<f8").tobytes(order="F"))
            f.write(np.asarray(gaps, dtype="<f8").tobytes())
            f.write(np.asarray(n_iter, dtype="<i4").tobytes())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
