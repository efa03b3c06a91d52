"""The cosine of two embeddings, with its parts: the one cosine of the library.

    cos(u, v) = u · v / (|u| |v|)          u · v = Σ_i u_i v_i,   |u| = √(u · u)

    a zero vector: cosine 0 (not NaN)
    clamp: float rounding can give 1.0000000000000002; a cosine is kept in [-1, 1]
"""

import math
import operator


def cosine(u, v):
    # Exact sums (fsum) over the non-zero products: a hashed vector is mostly zeros, and leaving them out
    # changes no sum; map and filter keep the loop out of Python.
    dot = math.fsum(filter(None, map(operator.mul, u, v)))
    norm_u = math.sqrt(math.fsum(filter(None, map(operator.mul, u, u))))
    norm_v = math.sqrt(math.fsum(filter(None, map(operator.mul, v, v))))
    return dot, norm_u, norm_v, cosine_of(dot, norm_u, norm_v)


def cosine_of(dot, norm_u, norm_v):
    return dot / (norm_u * norm_v) if norm_u and norm_v else 0.0


def clamp(cos):
    return max(-1.0, min(1.0, cos))
