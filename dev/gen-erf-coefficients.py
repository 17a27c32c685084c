#!/usr/bin/env python3
"""Generates the polynomial coefficients used by ErrorFunction.java (needs mpmath).

Each piece is a Chebyshev interpolant computed at 50 significant digits, re-expanded as a
polynomial in s = x - mid and rounded to double. Prints the Java array literals.
Usage: python3 dev/gen-erf-coefficients.py
"""
import mpmath as mp

mp.mp.dps = 50


def erfcx(x):
    return mp.exp(x * x) * mp.erfc(x)


def tail(u):
    # x * erfcx(x) as a function of u = 1 / x^2; tends to 1/sqrt(pi) as x grows.
    x = 1 / mp.sqrt(u)
    return erfcx(x) * x


def chebyshev_as_monomials(f, a, b, n):
    a, b = mp.mpf(a), mp.mpf(b)
    mid, half = (a + b) / 2, (b - a) / 2
    nodes = [mp.cos(mp.pi * (k + mp.mpf(1) / 2) / n) for k in range(n)]
    values = [f(mid + half * t) for t in nodes]
    cheb = [2 * mp.fsum(values[k] * mp.cos(mp.pi * j * (k + mp.mpf(1) / 2) / n) for k in range(n)) / n
            for j in range(n)]
    cheb[0] /= 2
    basis = [[mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]]
    for j in range(2, n):
        p = [mp.mpf(0)] * (j + 1)
        for i, v in enumerate(basis[j - 1]):
            p[i + 1] += 2 * v
        for i, v in enumerate(basis[j - 2]):
            p[i] -= v
        basis.append(p)
    mono = [mp.mpf(0)] * n
    for j in range(n):
        for i, v in enumerate(basis[j]):
            mono[i] += cheb[j] * v
    return [float(mono[i] / half ** i) for i in range(n)]


def emit(name, comment, coefficients):
    print(f"    /** {comment} */")
    print(f"    private static final double[] {name} = {{")
    for i in range(0, len(coefficients), 3):
        print("        " + ", ".join(repr(c) for c in coefficients[i:i + 3]) + ",")
    print("    };")


taylor = [float(2 / mp.sqrt(mp.pi) * (-1) ** n / (mp.factorial(n) * (2 * n + 1))) for n in range(13)]
emit("ERF_SMALL", "erf(x) / x as a polynomial in x^2, |x| < 0.5 (Taylor series).", taylor)
emit("ERFCX_1", "erfcx(x) on [0.5, 1] as a polynomial in x - 0.75.", chebyshev_as_monomials(erfcx, 0.5, 1, 14))
emit("ERFCX_2", "erfcx(x) on [1, 2] as a polynomial in x - 1.5.", chebyshev_as_monomials(erfcx, 1, 2, 16))
emit("ERFCX_3", "erfcx(x) on [2, 4] as a polynomial in x - 3.", chebyshev_as_monomials(erfcx, 2, 4, 18))
emit("ERFCX_TAIL", "x erfcx(x) for x >= 4 as a polynomial in 1/x^2 - 1/32.",
     chebyshev_as_monomials(tail, 0, mp.mpf(1) / 16, 16))
