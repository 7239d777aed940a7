"""Writes the narrow element type programs of tests/interp/data_elementwise/ (narrow_float.mlir,
narrow_float_ops.mlir, subbyte_i2.mlir) with expected values derived here, independently of
hlorun's C code, from the formats' definitions (the StableHLO spec's "Types", LLVM APFloat's
semantics of each f8/f6/f4 type and tf32, the OCP MX spec for E8M0/FP6/FP4) with exact rational
arithmetic (fractions.Fraction):

  * a value converts to a type by rounding to nearest, ties to even (the last kept significand
    bit), with gradual underflow; beyond the largest finite value: infinity in the IEEE-like types
    (f8E5M2, f8E4M3, f8E3M4, tf32), NaN in the others (FN: S.1111.111 keeping the sign, FNUZ and
    E8M0: their one NaN), the largest finite value in the finite-only f4/f6 types (as APFloat's
    overflow handling and XLA do); FNUZ types have no -0 (zeros become +0); E8M0 has no zero
    (values below 2^-127 become 2^-127) and turns negative values into NaN;
  * arithmetic (+ - * /) is exact and then rounded once: what the reference interpreter's APFloat
    operations in the element type produce; a sum over a reduce is rounded after each step
    (the reference folds with the element type's add); dot_general rounds the exact dot product
    once (hlorun accumulates these types in double, exact for these operands);
  * float -> integer truncates toward zero and saturates, NaN -> 0 (APFloat convertToInteger);
  * reduce_precision follows the spec's conversion to a type of exponent_bits/mantissa_bits
    (IEEE-like, with infinity) and back, subnormals of that type flushed to zero as XLA does,
    by value, the range reduced only below the type's own exponent width (hlorun's choice for
    these types: interp/kernels_elementwise_float.c says why);
  * the i2/ui2 ops wrap modulo 2^bits, x / 0 = -1, x % 0 = x, shifts by >= 2 give 0 or the sign.

Results are observed bit for bit: the f8 and f4 types bitcast to ui8/ui4, the f6 types and tf32
(whose widths no integer type has) converted exactly to f64 and bitcast to ui64.

  python3 tests/interp/narrow_type_cases.py [--out DIR]   # rewrites the three files (default:
                                                          # tests/interp/data_elementwise)"""
import math
import os
import random
import struct
import sys
from fractions import Fraction as F

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "data_elementwise")

# name: exponent bits, mantissa bits, bias, kind, storage bits
#   kind: ieee (inf, NaNs with exponent all ones), fn (no inf, S.1..1 NaN), fnuz (no inf, no -0,
#   0x80 NaN), finite (no inf, no NaN), e8m0 (unsigned exponent only, 0xFF NaN)
FORMATS = {
    "f8E4M3FN": (4, 3, 7, "fn", 8),
    "f8E5M2": (5, 2, 15, "ieee", 8),
    "f8E4M3FNUZ": (4, 3, 8, "fnuz", 8),
    "f8E5M2FNUZ": (5, 2, 16, "fnuz", 8),
    "f8E4M3B11FNUZ": (4, 3, 11, "fnuz", 8),
    "f8E3M4": (3, 4, 3, "ieee", 8),
    "f8E4M3": (4, 3, 7, "ieee", 8),
    "f8E8M0FNU": (8, 0, 127, "e8m0", 8),
    "f4E2M1FN": (2, 1, 1, "finite", 4),
    "f6E2M3FN": (2, 3, 1, "finite", 6),
    "f6E3M2FN": (3, 2, 3, "finite", 6),
    "tf32": (8, 10, 127, "ieee", 19),
}

NAN, INF = "nan", "inf"


class Val:
    """A value: sign and either a non-negative Fraction, INF or NAN."""

    def __init__(self, neg, mag):
        self.neg, self.mag = neg, mag

    def num(self):
        return self.mag not in (NAN, INF)

    def frac(self):
        return -self.mag if self.neg else self.mag


def val(x):
    x = F(x)
    return Val(x < 0, abs(x))


def width(f):
    e, m, _, kind, _ = FORMATS[f]
    return e + m + (0 if kind == "e8m0" else 1)


def sign_bit(f):
    return 0 if FORMATS[f][3] == "e8m0" else 1 << (width(f) - 1)


def max_code(f):
    e, m, _, kind, _ = FORMATS[f]
    if kind == "ieee":
        return (((1 << e) - 2) << m) | ((1 << m) - 1)
    if kind in ("fn", "e8m0"):
        return (1 << (e + m)) - 2
    return (1 << (e + m)) - 1


def decode(f, code):
    e, m, bias, kind, _ = FORMATS[f]
    neg = bool(code & sign_bit(f))
    mag = code & ((1 << (e + m)) - 1)
    ef, mf = mag >> m, mag & ((1 << m) - 1)
    if kind == "ieee" and ef == (1 << e) - 1:
        return Val(neg, INF if mf == 0 else NAN)
    if kind in ("fn", "e8m0") and mag == (1 << (e + m)) - 1:
        return Val(neg, NAN)
    if kind == "fnuz" and code == sign_bit(f):
        return Val(False, NAN)
    if kind == "e8m0":
        return Val(False, F(2) ** (ef - bias))
    if ef == 0:
        return Val(neg, F(mf, 1 << m) * F(2) ** (1 - bias))
    return Val(neg, (1 + F(mf, 1 << m)) * F(2) ** (ef - bias))


def nan_code(f, neg):
    e, m, _, kind, _ = FORMATS[f]
    if kind == "ieee":
        return (sign_bit(f) if neg else 0) | (((1 << e) - 1) << m) | (1 << (m - 1))
    if kind == "fn":
        return (sign_bit(f) if neg else 0) | ((1 << (e + m)) - 1)
    if kind == "fnuz":
        return 0x80
    if kind == "e8m0":
        return 0xFF
    return sign_bit(f)  # finite-only types have no NaN: XLA's choice, -0


def with_sign(f, neg, code):
    if FORMATS[f][3] == "fnuz" and code == 0:
        return 0
    return (sign_bit(f) if neg else 0) | code


def overflow_code(f, neg):
    e, m, _, kind, _ = FORMATS[f]
    if kind == "ieee":
        return with_sign(f, neg, ((1 << e) - 1) << m)
    if kind == "finite":
        return with_sign(f, neg, max_code(f))
    return nan_code(f, neg)


def round_half_even(x):
    n = math.floor(x)
    r = x - n
    if r > F(1, 2) or (r == F(1, 2) and n % 2 == 1):
        n += 1
    return n


def encode(f, v):
    """The code of Val v in format f (round to nearest even)."""
    e, m, bias, kind, _ = FORMATS[f]
    if v.mag == NAN:
        return nan_code(f, v.neg)
    if kind == "e8m0" and v.neg and v.mag != 0:
        return 0xFF
    if v.mag == INF:
        return overflow_code(f, v.neg)
    if v.mag == 0:
        return 0 if kind == "e8m0" else with_sign(f, v.neg, 0)
    emin = -bias if kind == "e8m0" else 1 - bias
    x = v.mag
    ex = max(math.floor(math.log2(x)), emin)
    while F(2) ** ex > x and ex > emin:  # log2 of a Fraction may be off by one
        ex -= 1
    while F(2) ** (ex + 1) <= x:
        ex += 1
    ex = max(ex, emin)
    q = F(2) ** (ex - m)
    n = round_half_even(x / q)
    if n == 0:
        return 0 if kind == "e8m0" else with_sign(f, v.neg, 0)
    if n == 1 << (m + 1):
        n, ex = n >> 1, ex + 1
    if kind == "e8m0":
        code = ex + bias
    elif n < (1 << m):
        code = n
    else:
        code = ((ex + bias) << m) | (n - (1 << m))
    if code > max_code(f):
        return overflow_code(f, v.neg)
    return with_sign(f, v.neg, code)


def codes(f):
    """Every code of f (tf32: a sample of its 2^19)."""
    if f == "tf32":
        rng = random.Random(19)
        mags = [0, 1, 2, 0x3FF, 0x400, 0x401, 0x1FC00, 0x3F800, 0x3FBFF, 0x3FC00, 0x3FC01]
        mags += [rng.randrange(0, 0x3FC00) for _ in range(20)]
        return [s | c for c in mags for s in (0, 1 << 18)]
    return list(range(1 << width(f)))


def f64_bits(v):
    """The IEEE binary64 bits of a Val (a NaN: the positive quiet NaN, what the types' positive
    quiet NaNs, nan_code(f, False), decode to)."""
    if v.mag == NAN:
        return 0x7FF8000000000000
    x = math.inf if v.mag == INF else float(v.mag)
    return struct.unpack("<Q", struct.pack("<d", -x if v.neg else x))[0]


def literal(v):
    """An MLIR float literal for a non-NaN Val that f64 holds exactly."""
    if v.mag == INF:
        return "0xFFF0000000000000" if v.neg else "0x7FF0000000000000"
    x = float(v.mag)
    assert F(x) == v.mag
    return repr(-x if v.neg else x)


def exact_decimal(v):
    """Whether literal(v) is v's exact value in decimal (so that rounding it to a narrow type
    directly or through f64 gives the same result)."""
    return v.mag == INF or F(literal(v)) == v.frac()


class Program:
    """One function body of check.expect_eq calls."""

    def __init__(self, name, comment):
        self.name, self.comment, self.lines, self.n = name, comment, [], 0

    def fresh(self):
        self.n += 1
        return "%%v%d" % self.n

    def const(self, ty, elems, shape=None):
        v = self.fresh()
        t = "tensor<%s%s>" % ("" if shape == () else "%dx" % len(elems), ty)
        body = elems[0] if shape == () else "[%s]" % ", ".join(elems)
        self.lines.append("%s = stablehlo.constant dense<%s> : %s" % (v, body, t))
        return v, t

    def op(self, text):
        v = self.fresh()
        self.lines.append("%s = %s" % (v, text.replace("$", v)))
        return v

    def expect(self, v, t, elems, ety):
        e, et = self.const(ety, elems)
        self.lines.append("stablehlo.custom_call @check.expect_eq(%s, %s) {has_side_effect = true} : (%s, %s) -> ()"
                          % (v, e, t, et))

    def observe(self, f, v, t, expected_codes):
        """Checks tensor v (type t, element type f) holds expected_codes bit for bit."""
        n = len(expected_codes)
        storage = FORMATS[f][4]
        if storage in (4, 8):
            it = "tensor<%dxui%d>" % (n, storage)
            b = self.op("stablehlo.bitcast_convert %s : (%s) -> %s" % (v, t, it))
            self.expect(b, it, [str(c) for c in expected_codes], "ui%d" % storage)
        else:
            ft, it = "tensor<%dxf64>" % n, "tensor<%dxui64>" % n
            c = self.op("stablehlo.convert %s : (%s) -> %s" % (v, t, ft))
            b = self.op("stablehlo.bitcast_convert %s : (%s) -> %s" % (c, ft, it))
            self.expect(b, it, [str(f64_bits(decode(f, k))) for k in expected_codes], "ui64")

    def code_const(self, f, cs):
        """A tensor of f holding codes cs (hex literals are bit patterns; tf32's are 19 bits)."""
        return self.const(f, ["0x%X" % c for c in cs])

    def text(self):
        body = "\n".join("    " + l for l in self.lines)
        return ("// %s\n// Generated by tests/interp/narrow_type_cases.py: do not edit.\nmodule @%s {\n"
                "  func.func public @main() {\n%s\n    return\n  }\n}\n") % (self.comment, self.name, body)


def non_nan(f):
    return [c for c in codes(f) if decode(f, c).mag != NAN]


def finite(f):
    return [c for c in codes(f) if decode(f, c).num()]


def rounding_inputs(f):
    """f64 values exercising f's rounding: each finite magnitude's neighbourhood, ties between
    neighbours, overflow, underflow, infinities, zeros."""
    mags = sorted({decode(f, c).mag for c in finite(f)})
    if f == "tf32":
        mags = mags[:6] + mags[-4:]
    out = []
    for a, b in zip(mags, mags[1:]):
        mid = (a + b) / 2
        out += [mid, mid - (b - a) / 8, mid + (b - a) / 8]
    top = mags[-1]
    gap = top - mags[-2]
    out += [top + gap / 2, top + gap / 4, top * 4, F(2) ** 200, mags[1] / 2, mags[1] / 4]
    vals = [Val(False, x) for x in out] + [Val(True, x) for x in out[::5]]
    vals += [Val(False, INF), Val(True, INF), Val(False, F(0)), Val(True, F(0))]
    return [v for v in vals if F(float(v.mag if v.num() else 0)) == (v.mag if v.num() else 0)]


def chunks(xs, n=64):
    return [xs[i:i + n] for i in range(0, len(xs), n)]


def narrow_float_program():
    p = Program("narrow_float", "Every narrow float type: exact decoding of its codes, rounding from f64 (ties,\n"
                "// overflow, underflow, infinities, NaN), constants, and conversions between them and to integers.")
    for f in FORMATS:
        # decoding every non-NaN code exactly: convert to f64, bitcast
        for cs in chunks(non_nan(f)):
            x, t = p.code_const(f, cs)
            ft, it = "tensor<%dxf64>" % len(cs), "tensor<%dxui64>" % len(cs)
            c = p.op("stablehlo.convert %s : (%s) -> %s" % (x, t, ft))
            b = p.op("stablehlo.bitcast_convert %s : (%s) -> %s" % (c, ft, it))
            p.expect(b, it, [str(f64_bits(decode(f, k))) for k in cs], "ui64")
        # NaN codes decode to NaN and convert back to themselves (f32 round trip keeps them)
        nans = [c for c in codes(f) if decode(f, c).mag == NAN]
        if nans:
            x, t = p.code_const(f, nans)
            ft = "tensor<%dxf32>" % len(nans)
            c = p.op("stablehlo.convert %s : (%s) -> %s" % (x, t, ft))
            ne = p.op("stablehlo.compare NE, %s, %s, FLOAT : (%s, %s) -> tensor<%dxi1>" % (c, c, ft, ft, len(nans)))
            p.expect(ne, "tensor<%dxi1>" % len(nans), ["true"] * len(nans), "i1")
            if FORMATS[f][4] in (4, 8):  # bitcast: the NaN codes themselves, signaling ones quieted
                back = p.op("stablehlo.convert %s : (%s) -> %s" % (c, ft, t))
                quiet = 1 << (FORMATS[f][1] - 1) if FORMATS[f][3] == "ieee" else 0
                p.observe(f, back, t, [c | quiet for c in nans])
        # rounding from f64
        ins = rounding_inputs(f)
        for vs in chunks(ins):
            x, t = p.const("f64", [literal(v) for v in vs])
            rt = "tensor<%dx%s>" % (len(vs), f)
            c = p.op("stablehlo.convert %s : (%s) -> %s" % (x, t, rt))
            p.observe(f, c, rt, [encode(f, v) for v in vs])
        # NaN from f64 (a positive quiet NaN)
        x, t = p.const("f64", ["0x7FF8000000000000"])
        rt = "tensor<1x%s>" % f
        c = p.op("stablehlo.convert %s : (%s) -> %s" % (x, t, rt))
        p.observe(f, c, rt, [nan_code(f, False)])
        # decimal constants round as conversions do
        lits = [v for v in ins if v.num() and exact_decimal(v)][:24]
        x, t = p.const(f, [literal(v) for v in lits])
        p.observe(f, x, t, [encode(f, v) for v in lits])
        # to integers: truncation toward zero, saturation, NaN -> 0
        fin = [decode(f, c) for c in finite(f)]
        picks = fin[:: max(1, len(fin) // 24)] + [fin[-1]]
        nan = [c for c in codes(f) if decode(f, c).mag == NAN][:1]
        cs = [encode(f, v) for v in picks] + nan
        x, t = p.code_const(f, cs)
        for ity, lo, hi in (("i8", -128, 127), ("ui8", 0, 255), ("i32", -2**31, 2**31 - 1)):
            rt = "tensor<%dx%s>" % (len(cs), ity)
            c = p.op("stablehlo.convert %s : (%s) -> %s" % (x, t, rt))
            want = [str(min(hi, max(lo, math.trunc(v.frac())))) for v in picks] + ["0"] * len(nan)
            p.expect(c, rt, want, ity)
        # from integers, rounded once
        ints = [0, 1, -1, 3, 5, 7, 9, 17, 33, 255, -255, 1000, 65535, -70000, 2**31 - 1]
        if FORMATS[f][3] == "e8m0":
            ints = [i for i in ints if i > 0]
        x, t = p.const("i32", [str(i) for i in ints])
        rt = "tensor<%dx%s>" % (len(ints), f)
        c = p.op("stablehlo.convert %s : (%s) -> %s" % (x, t, rt))
        p.observe(f, c, rt, [encode(f, val(i)) for i in ints])
        # from every other narrow type: exact value, rounded once
        for g in FORMATS:
            if g == f:
                continue
            src = [c for c in non_nan(g)]
            src = src[:: max(1, len(src) // 20)] + [max_code(g), with_sign(g, True, max_code(g)) if sign_bit(g) else 0]
            if FORMATS[f][3] == "e8m0":  # E8M0's negative inputs have no agreed result
                src = [c for c in src if not decode(g, c).neg or decode(g, c).mag == 0]
            x, t = p.code_const(g, src)
            rt = "tensor<%dx%s>" % (len(src), f)
            c = p.op("stablehlo.convert %s : (%s) -> %s" % (x, t, rt))
            p.observe(f, c, rt, [encode(f, decode(g, k)) for k in src])
    return p


def arith(op, a, b):
    """The exact result of a binary op on two non-NaN Vals, as a Val (None: not covered)."""
    if not (a.num() and b.num()):
        return None
    x, y = a.frac(), b.frac()
    if op == "add":
        r = x + y
        neg = r < 0 or (r == 0 and a.neg and b.neg)
    elif op == "subtract":
        r = x - y
        neg = r < 0 or (r == 0 and a.neg and not b.neg)
    elif op == "multiply":
        r = x * y
        neg = a.neg != b.neg
    elif op == "divide":
        if y == 0:
            return None
        r = x / y
        neg = a.neg != b.neg
    elif op == "maximum":
        return a if (x > y or (x == y and not a.neg)) else b
    else:
        return a if (x < y or (x == y and a.neg)) else b
    return Val(neg, abs(r))


def reduce_precision(f, v, eb, mb):
    """reduce_precision of a non-NaN Val to eb exponent and mb mantissa bits (IEEE-like with
    infinity, subnormals flushed), as a Val."""
    if not v.num() or v.mag == 0:
        return v
    bias = (1 << (eb - 1)) - 1
    ex = math.floor(math.log2(v.mag))
    while F(2) ** ex > v.mag:
        ex -= 1
    while F(2) ** (ex + 1) <= v.mag:
        ex += 1
    m = FORMATS[f][1]
    if mb < m:
        q = F(2) ** (ex - mb)
        n = round_half_even(v.mag / q)
        if mb == 0 and v.mag / q == F(3, 2):  # a tie with no mantissa bit: the last kept bit is
            n = 1 if (ex + 1023) % 2 == 0 else 2  # the (binary64) exponent's lowest, kept even
        r = n * q
    else:
        r = v.mag
    if r == 0:
        return Val(v.neg, F(0))
    ex = math.floor(math.log2(r))
    while F(2) ** ex > r:
        ex -= 1
    while F(2) ** (ex + 1) <= r:
        ex += 1
    if eb < FORMATS[f][0] and ex > bias:  # the range shrinks only below the type's own
        return Val(v.neg, INF)
    if eb < FORMATS[f][0] and ex < 1 - bias:
        return Val(v.neg, F(0))
    return Val(v.neg, r)


def ops_program():
    p = Program("narrow_float_ops", "Arithmetic, comparisons, reductions and reduce_precision on every narrow float\n"
                "// type: each result the exact one rounded to the type (the reference interpreter's APFloat).")
    rng = random.Random(2024)
    for f in FORMATS:
        fin = finite(f)
        kind = FORMATS[f][3]
        pairs = [(rng.choice(fin), rng.choice(fin)) for _ in range(40)]
        pairs += [(max_code(f), max_code(f)), (1, 1), (1, with_sign(f, True, 1)), (2, 1)]
        for op in ("add", "subtract", "multiply", "divide", "maximum", "minimum"):
            sel = []
            for a, b in pairs:
                r = arith(op, decode(f, a), decode(f, b))
                if r is None:
                    continue
                if kind == "e8m0" and op in ("add", "subtract") and r.neg:
                    continue  # E8M0 has no negative values: no agreed result
                sel.append((a, b, r))
            if op == "subtract" and kind == "e8m0":
                sel = [s for s in sel if s[2].mag != 0]
            x, t = p.code_const(f, [a for a, _, _ in sel])
            y, _ = p.code_const(f, [b for _, b, _ in sel])
            r = p.op("stablehlo.%s %s, %s : %s" % (op, x, y, t))
            p.observe(f, r, t, [encode(f, v) for _, _, v in sel])
        # abs and negate (E8M0 is unsigned: abs only)
        cs = fin[:: max(1, len(fin) // 30)]
        x, t = p.code_const(f, cs)
        r = p.op("stablehlo.abs %s : %s" % (x, t))
        p.observe(f, r, t, [encode(f, Val(False, decode(f, c).mag)) for c in cs])
        if kind != "e8m0":
            r = p.op("stablehlo.negate %s : %s" % (x, t))
            p.observe(f, r, t, [encode(f, Val(not decode(f, c).neg, decode(f, c).mag)) for c in cs])
        # compare: ordered float comparison, NaN unordered, -0 == +0
        nan = [nan_code(f, False)] if kind != "finite" else []  # the quiet NaN
        a_cs = [a for a, _ in pairs[:12]] + nan + ([0] if kind != "e8m0" else [])
        b_cs = [b for _, b in pairs[:12]] + nan + ([with_sign(f, True, 0)] if kind != "e8m0" else [])
        x, t = p.code_const(f, a_cs)
        y, _ = p.code_const(f, b_cs)
        n = len(a_cs)
        for d, fn in (("LT", lambda u, v: u < v), ("EQ", lambda u, v: u == v), ("GE", lambda u, v: u >= v),
                      ("NE", lambda u, v: u != v)):
            r = p.op("stablehlo.compare %s, %s, %s, FLOAT : (%s, %s) -> tensor<%dxi1>" % (d, x, y, t, t, n))
            want = []
            for a, b in zip(a_cs, b_cs):
                va, vb = decode(f, a), decode(f, b)
                if va.mag == NAN or vb.mag == NAN:
                    want.append("true" if d == "NE" else "false")
                else:
                    want.append("true" if fn(va.frac(), vb.frac()) else "false")
            p.expect(r, "tensor<%dxi1>" % n, want, "i1")
        # is_finite over every code (tf32: the sample)
        cs = codes(f)
        x2, t2 = p.code_const(f, cs)
        fin_t = "tensor<%dxi1>" % len(cs)
        r = p.op("stablehlo.is_finite %s : (%s) -> %s" % (x2, t2, fin_t))
        p.expect(r, fin_t, ["true" if decode(f, c).num() else "false" for c in cs], "i1")
        # sort in total order (-0 before +0), and clamp between two values of the type
        srt = sorted(set(a_cs) - set(nan), key=lambda c: (decode(f, c).frac(), not decode(f, c).neg))
        xs, ts = p.code_const(f, sorted(set(a_cs) - set(nan)))
        st = "tensor<%s>" % f
        r = p.op(('"stablehlo.sort"(%s) ({\n    ^bb0(%%p: %s, %%q: %s):\n'
                  '      %%lt = stablehlo.compare LT, %%p, %%q, TOTALORDER : (%s, %s) -> tensor<i1>\n'
                  '      stablehlo.return %%lt : tensor<i1>\n'
                  '    }) {dimension = 0 : i64, is_stable = true} : (%s) -> %s') % (xs, st, st, st, st, ts, ts))
        p.observe(f, r, ts, srt)
        lo_c, hi_c = sorted(fin, key=lambda c: decode(f, c).frac())[len(fin) // 3], sorted(fin, key=lambda c: decode(f, c).frac())[2 * len(fin) // 3]
        lo, _ = p.code_const(f, [lo_c])
        hi, _ = p.code_const(f, [hi_c])
        los = p.op("stablehlo.reshape %s : (tensor<1x%s>) -> %s" % (lo, f, st))
        his = p.op("stablehlo.reshape %s : (tensor<1x%s>) -> %s" % (hi, f, st))
        r = p.op("stablehlo.clamp %s, %s, %s : (%s, %s, %s) -> %s" % (los, xs, his, st, ts, st, ts))
        vlo, vhi = decode(f, lo_c).frac(), decode(f, hi_c).frac()
        p.observe(f, r, ts, [lo_c if decode(f, c).frac() < vlo else hi_c if decode(f, c).frac() > vhi else c
                             for c in sorted(set(a_cs) - set(nan))])
        # select picks bits unchanged
        pred = ["true" if i % 2 else "false" for i in range(n)]
        pc, pt = p.const("i1", pred)
        r = p.op("stablehlo.select %s, %s, %s : tensor<%dxi1>, %s" % (pc, x, y, n, t))
        p.observe(f, r, t, [a if pr == "true" else b for pr, a, b in zip(pred, a_cs, b_cs)])
        # reduce (sum, rounded after each step, in order) and dot_general (exact, rounded once)
        vals = fin[len(fin) // 2: len(fin) // 2 + 8] if kind != "e8m0" else fin[100:108]
        x, t = p.code_const(f, vals)
        z, zt = p.code_const(f, [0 if kind != "e8m0" else encode(f, val(1))])
        scalar = "tensor<%s>" % f
        zs = p.op("stablehlo.reshape %s : (%s) -> %s" % (z, zt, scalar))
        acc = decode(f, encode(f, val(0))) if kind != "e8m0" else decode(f, encode(f, val(1)))
        for c in vals:
            acc = decode(f, encode(f, arith("add", acc, decode(f, c))))
        r = p.op("stablehlo.reduce(%s init: %s) applies stablehlo.add across dimensions = [0] : (%s, %s) -> %s"
                 % (x, zs, t, scalar, scalar))
        r1 = p.op("stablehlo.reshape %s : (%s) -> tensor<1x%s>" % (r, scalar, f))
        p.observe(f, r1, "tensor<1x%s>" % f, [encode(f, acc)])
        exact = sum((decode(f, c).frac() * decode(f, c).frac() for c in vals), F(0))
        d = p.op("stablehlo.dot_general %s, %s, contracting_dims = [0] x [0] : (%s, %s) -> %s" % (x, x, t, t, scalar))
        d1 = p.op("stablehlo.reshape %s : (%s) -> tensor<1x%s>" % (d, scalar, f))
        p.observe(f, d1, "tensor<1x%s>" % f, [encode(f, val(exact))])
        # mixed dot_general into f32 (the FP8 matmul form): exact here
        d32 = p.op("stablehlo.dot_general %s, %s, contracting_dims = [0] x [0] : (%s, %s) -> tensor<f32>" % (x, x, t, t))
        p.expect(p.op("stablehlo.reshape %s : (tensor<f32>) -> tensor<1xf32>" % d32), "tensor<1xf32>",
                 [repr(float(exact))], "f32")
        # iota counts in the type
        it = "tensor<8x%s>" % f
        io = p.op("stablehlo.iota dim = 0 : %s" % it)
        p.observe(f, io, it, [encode(f, val(i)) for i in range(8)])
        # reduce_precision on the IEEE-like types; mantissa rounding within range on the others;
        # E8M0 (7 "exponent bits" in the reference's split) unchanged with >= its 8 bits
        cs = finite(f)[:: max(1, len(finite(f)) // 40)]
        specs = [(FORMATS[f][0], FORMATS[f][1])]
        if kind == "ieee":
            specs += [(FORMATS[f][0] - 1, max(0, FORMATS[f][1] - 1)), (2, 1), (FORMATS[f][0], 0)]
        elif kind != "e8m0":
            specs += [(FORMATS[f][0] + 3, max(0, FORMATS[f][1] - 1)), (FORMATS[f][0] + 3, 0)]
        else:
            specs = [(8, 0), (9, 3)]
        x, t = p.code_const(f, cs)
        for eb, mb in specs:
            r = p.op("stablehlo.reduce_precision %s, format = e%dm%d : %s" % (x, eb, mb, t))
            if kind in ("ieee",):
                want = [encode(f, reduce_precision(f, decode(f, c), eb, mb)) for c in cs]
            else:  # exponent range untouched: only the mantissa rounds
                want = [encode(f, reduce_precision(f, decode(f, c), 30, mb)) for c in cs]
            p.observe(f, r, t, want)
    return p


def int_program():
    p = Program("subbyte_i2", "i2 and ui2 (one byte per element, sign- or zero-extended): every op on every\n"
                "// pair of values wraps modulo 4; x / 0 = -1, x % 0 = x, out-of-range shifts give 0 or the sign.")
    for ty, vals, signed in (("i2", [-2, -1, 0, 1], True), ("ui2", [0, 1, 2, 3], False)):
        def wrap(x):
            x &= 3
            return x - 4 if signed and x >= 2 else x

        def unsigned(x):
            return x & 3

        xs = [a for a in vals for _ in vals]
        ys = [b for _ in vals for b in vals]
        n = len(xs)
        t = "tensor<%dx%s>" % (n, ty)
        x, _ = p.const(ty, [str(v) for v in xs])
        y, _ = p.const(ty, [str(v) for v in ys])

        def div(a, b):
            if b == 0:
                return -1
            q = abs(a) // abs(b)
            return q if (a < 0) == (b < 0) else -q

        def rem(a, b):
            if b == 0:
                return a
            return a - div(a, b) * b

        def sra(a, s):  # on the bit pattern: the top bit fills, unsigned types too
            a, s = (unsigned(a) ^ 2) - 2, unsigned(s)
            return (-1 if a < 0 else 0) if s >= 2 else a >> s

        binary = {
            "add": lambda a, b: a + b, "subtract": lambda a, b: a - b, "multiply": lambda a, b: a * b,
            "divide": div, "remainder": rem, "maximum": max, "minimum": min,
            "and": lambda a, b: a & b, "or": lambda a, b: a | b, "xor": lambda a, b: a ^ b,
            "shift_left": lambda a, b: 0 if unsigned(b) >= 2 else a << unsigned(b),
            "shift_right_logical": lambda a, b: 0 if unsigned(b) >= 2 else unsigned(a) >> unsigned(b),
            "shift_right_arithmetic": sra,
            "power": lambda a, b: (0 if abs(a) != 1 else a ** abs(b)) if b < 0 else a ** b,
        }
        for op, fn in binary.items():
            r = p.op("stablehlo.%s %s, %s : %s" % (op, x, y, t))
            p.expect(r, t, [str(wrap(fn(a, b))) for a, b in zip(xs, ys)], ty)
        unary = {
            "negate": lambda a: -a, "not": lambda a: ~a,
            "popcnt": lambda a: bin(unsigned(a)).count("1"),
            "count_leading_zeros": lambda a: 2 - unsigned(a).bit_length(),
        }
        if signed:  # abs and sign take signed integers only
            unary["sign"] = lambda a: (a > 0) - (a < 0)
            unary["abs"] = abs
        for op, fn in unary.items():
            r = p.op("stablehlo.%s %s : %s" % (op, x, t))
            p.expect(r, t, [str(wrap(fn(a))) for a in xs], ty)
        ct = "tensor<%dxi1>" % n
        r = p.op("stablehlo.compare LT, %s, %s, %s : (%s, %s) -> %s"
                 % (x, y, "SIGNED" if signed else "UNSIGNED", t, t, ct))
        p.expect(r, ct, ["true" if a < b else "false" for a, b in zip(xs, ys)], "i1")
        # conversions: to i32 and f32 exactly; from i32 and f32 (the low bits; truncation, saturation)
        for other, fmt in (("i32", str), ("f32", lambda v: repr(float(v)))):
            ot = "tensor<%dx%s>" % (len(vals), other)
            v, vt = p.const(ty, [str(a) for a in vals])
            r = p.op("stablehlo.convert %s : (%s) -> %s" % (v, vt, ot))
            p.expect(r, ot, [fmt(a) for a in vals], other)
        wide = [5, -3, 6, 7, -8]
        v, vt = p.const("i32", [str(a) for a in wide])
        r = p.op("stablehlo.convert %s : (%s) -> tensor<%dx%s>" % (v, vt, len(wide), ty))
        p.expect(r, "tensor<%dx%s>" % (len(wide), ty), [str(wrap(a)) for a in wide], ty)
        fl = [1.75, -1.75, 100.0, -100.0, 2.5]
        lo, hi = (-2, 1) if signed else (0, 3)
        v, vt = p.const("f32", [repr(a) for a in fl])
        r = p.op("stablehlo.convert %s : (%s) -> tensor<%dx%s>" % (v, vt, len(fl), ty))
        p.expect(r, "tensor<%dx%s>" % (len(fl), ty), [str(min(hi, max(lo, math.trunc(a)))) for a in fl], ty)
        # bitcast: four 2-bit values pack into one byte, least significant first
        q, qt = p.const(ty, [str(a) for a in vals], None)
        q2 = p.op("stablehlo.reshape %s : (%s) -> tensor<1x4x%s>" % (q, qt, ty))
        b = p.op("stablehlo.bitcast_convert %s : (tensor<1x4x%s>) -> tensor<1xui8>" % (q2, ty))
        packed = sum(unsigned(a) << (2 * i) for i, a in enumerate(vals))
        p.expect(b, "tensor<1xui8>", [str(packed)], "ui8")
    return p


def bitcast_program(p):
    """f4 values pack two to a byte, least significant first, and an f8 splits into two f4s."""
    q, qt = p.code_const("f4E2M1FN", [0x3, 0xA])
    q2 = p.op("stablehlo.reshape %s : (%s) -> tensor<1x2xf4E2M1FN>" % (q, qt))
    b = p.op("stablehlo.bitcast_convert %s : (tensor<1x2xf4E2M1FN>) -> tensor<1xui8>" % q2)
    p.expect(b, "tensor<1xui8>", [str(0xA3)], "ui8")
    e, et = p.code_const("f8E4M3FN", [0x5C])
    s = p.op("stablehlo.bitcast_convert %s : (%s) -> tensor<1x2xf4E2M1FN>" % (e, et))
    s2 = p.op("stablehlo.reshape %s : (tensor<1x2xf4E2M1FN>) -> tensor<2xf4E2M1FN>" % s)
    p.observe("f4E2M1FN", s2, "tensor<2xf4E2M1FN>", [0xC, 0x5])


def main():
    out = sys.argv[2] if len(sys.argv) == 3 and sys.argv[1] == "--out" else OUT
    ops = ops_program()
    bitcast_program(ops)
    for prog in (narrow_float_program(), ops, int_program()):
        with open(os.path.join(out, prog.name + ".mlir"), "w") as fh:
            fh.write(prog.text())


if __name__ == "__main__":
    main()
