# A pure-Python stand-in for the part of numpy that GrCUDA's benchmark harness uses (GraalPy on this machine
# has no numpy wheel). It keeps numpy's meaning where the harness's CPU references depend on it:
#  - dtypes: float64 (the default), float32 (every element rounded to single precision after each operation),
#    int32/int64 and bool; result types follow numpy 2's promotion (a Python scalar does not widen an array);
#  - sums of floats use numpy's pairwise summation, so a reference sums in the same order as numpy (dot
#    products too, where numpy's BLAS may round differently in the last bit);
#  - np.random has its own generator, separate from Python's `random` module, as numpy's is.
# What it does not do: a slice is a copy, not a view (writing into one raises rather than being lost), integer
# arithmetic does not wrap at 32 bits, and `a.ctypes.data` is the native address of a copy of the values made
# when it is read (numpy's is the array's own memory), so writes through it do not reach the array.
import array as _array
import builtins as _b
import math as _m
import random as _r

pi = _m.pi
e = _m.e
nan = float("nan")
inf = float("inf")


class dtype:
    """A numpy element type: its name, its kind ('f', 'i', 'b') and how a Python number becomes one."""

    def __init__(self, name, kind, bits):
        self.name, self.kind, self.bits = name, kind, bits

    def __repr__(self):
        return "dtype('%s')" % self.name

    def __str__(self):
        return self.name

    def __call__(self, x=0):
        return _cast_list([x], self)[0]


float64 = dtype("float64", "f", 64)
float32 = dtype("float32", "f", 32)
int64 = dtype("int64", "i", 64)
int32 = dtype("int32", "i", 32)
bool_ = dtype("bool", "b", 8)
double, single = float64, float32


def _as_dtype(d):
    if d is None or isinstance(d, dtype):
        return d
    if d is _b.float:
        return float64
    if d is _b.int:
        return int64
    if d is _b.bool:
        return bool_
    for t in (float64, float32, int64, int32, bool_):
        if d == t.name:
            return t
    raise TypeError("the numpy stand-in has no dtype %r" % (d,))


def _cast_list(values, dt):
    if dt.kind == "f":
        values = [_b.float(v) for v in values]
        return _array.array("f", values).tolist() if dt.bits == 32 else values
    if dt.kind == "i":
        return [_b.int(v) for v in values]
    return [_b.bool(v) for v in values]


def _promote(a, b):
    """numpy's result type of two array dtypes."""
    if a is b:
        return a
    if a.kind == "b":
        return b
    if b.kind == "b":
        return a
    if a.kind == "f" and b.kind == "f":
        return float64 if 64 in (a.bits, b.bits) else float32
    if a.kind == "i" and b.kind == "i":
        return int64 if 64 in (a.bits, b.bits) else int32
    # an integer with a float: float32 only holds integers of up to 16 bits, so numpy widens to float64
    return float64


def _scalar_dtype(x):
    if isinstance(x, _b.bool):
        return bool_
    if isinstance(x, _b.int):
        return int64
    return float64


def _weak(arr_dt, scalar):
    """The result type of an array with a Python scalar (numpy 2: the scalar takes the array's type if it can)."""
    if isinstance(scalar, _b.bool):
        return arr_dt
    if isinstance(scalar, _b.int):
        return arr_dt if arr_dt.kind != "b" else int64
    return arr_dt if arr_dt.kind == "f" else float64


def _strides(shape):
    s, acc = [], 1
    for d in reversed(shape):
        s.append(acc)
        acc *= d
    return tuple(reversed(s))


def _prod(shape):
    p = 1
    for d in shape:
        p *= d
    return p


def _nested_shape(obj):
    if isinstance(obj, ndarray):
        return obj.shape
    if isinstance(obj, (list, tuple)):
        return (len(obj),) + (_nested_shape(obj[0]) if len(obj) else ())
    return ()


def _flatten(obj, out):
    if isinstance(obj, ndarray):
        out.extend(obj._d)
    elif isinstance(obj, (list, tuple)):
        for v in obj:
            _flatten(v, out)
    else:
        out.append(obj)


def _pairwise(v, lo, n):
    """numpy's pairwise sum of v[lo:lo+n] (8 partial sums below 128 elements, halves above)."""
    if n < 8:
        s = -0.0
        for i in range(lo, lo + n):
            s += v[i]
        return s
    if n <= 128:
        r = v[lo:lo + 8]
        i = lo + 8
        end = lo + n - n % 8
        while i < end:
            r[0] += v[i]; r[1] += v[i + 1]; r[2] += v[i + 2]; r[3] += v[i + 3]
            r[4] += v[i + 4]; r[5] += v[i + 5]; r[6] += v[i + 6]; r[7] += v[i + 7]
            i += 8
        s = ((r[0] + r[1]) + (r[2] + r[3])) + ((r[4] + r[5]) + (r[6] + r[7]))
        while i < lo + n:
            s += v[i]
            i += 1
        return s
    half = n // 2
    half -= half % 8
    return _pairwise(v, lo, half) + _pairwise(v, lo + half, n - half)


def _sum_list(v, dt):
    if dt.kind != "f":
        return _b.sum(_b.int(x) for x in v)
    if dt.bits == 32:
        # numpy adds float32 values in float32: round every partial sum
        v = _array.array("f", v)
        return _pairwise32(v, 0, len(v))
    return _pairwise(v, 0, len(v)) if v else 0.0


def _f32(x):
    return _array.array("f", [x])[0]


def _pairwise32(v, lo, n):
    if n < 8:
        s = -0.0
        for i in range(lo, lo + n):
            s = _f32(s + v[i])
        return s
    if n <= 128:
        r = list(v[lo:lo + 8])
        i = lo + 8
        end = lo + n - n % 8
        while i < end:
            for k in range(8):
                r[k] = _f32(r[k] + v[i + k])
            i += 8
        s = _f32(_f32(_f32(r[0] + r[1]) + _f32(r[2] + r[3])) + _f32(_f32(r[4] + r[5]) + _f32(r[6] + r[7])))
        while i < lo + n:
            s = _f32(s + v[i])
            i += 1
        return s
    half = n // 2
    half -= half % 8
    return _f32(_pairwise32(v, lo, half) + _pairwise32(v, lo + half, n - half))


class ndarray:
    """A C-ordered n-d array: a flat list of Python numbers, a shape and a dtype."""

    def __init__(self, data, shape, dt, copy_of_slice=False):
        self._d, self.shape, self.dtype = data, tuple(shape), dt
        self._slice_copy = copy_of_slice

    ndim = property(lambda self: len(self.shape))
    size = property(lambda self: len(self._d))
    T = property(lambda self: transpose(self))

    def __len__(self):
        if not self.shape:
            raise TypeError("len() of unsized object")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 1:
            return iter(self._d)
        return (self[i] for i in range(self.shape[0]))

    def copy(self):
        return ndarray(list(self._d), self.shape, self.dtype)

    def tolist(self):
        if self.ndim <= 1:
            return list(self._d)
        return [self[i].tolist() for i in range(self.shape[0])]

    def reshape(self, *shape):
        if len(shape) == 1 and isinstance(shape[0], (tuple, list)):
            shape = shape[0]
        shape = [_b.int(d) for d in shape]
        if -1 in shape:
            shape[shape.index(-1)] = self.size // _prod([d for d in shape if d != -1])
        if _prod(shape) != self.size:
            raise ValueError("cannot reshape array of size %d into shape %r" % (self.size, tuple(shape)))
        return ndarray(list(self._d), shape, self.dtype)

    @property
    def ctypes(self):
        """The array's values in native memory, as numpy's `a.ctypes`: its `data` is their address."""
        view = getattr(self, "_native", None)
        if view is None or view.values != self._d:
            view = self._native = _NativeCopy(self._d, self.dtype)
        return view

    def astype(self, dtype=None):
        dt = _as_dtype(dtype)
        return ndarray(_cast_list(self._d, dt), self.shape, dt)

    # indexing: ints, slices, a tuple of them, or a boolean mask of the same shape
    def _select(self, key):
        """The flat positions a key selects and the shape of the result."""
        if not isinstance(key, tuple):
            key = (key,)
        if len(key) > self.ndim:
            raise IndexError("too many indices for array: array is %d-dimensional, but %d were indexed"
                             % (self.ndim, len(key)))
        positions, shape = [0], []
        strides = _strides(self.shape)
        for dim, k in enumerate(key):
            n, st = self.shape[dim], strides[dim]
            if isinstance(k, slice):
                idx = range(*k.indices(n))
                shape.append(len(idx))
                positions = [p + i * st for p in positions for i in idx]
            else:
                k = _b.int(k)
                if k < 0:
                    k += n
                if not 0 <= k < n:
                    raise IndexError("index %d is out of bounds for axis %d with size %d" % (k, dim, n))
                positions = [p + k * st for p in positions]
        rest = self.shape[len(key):]
        inner = _prod(rest)
        if inner != 1 or rest:
            positions = [p + i for p in positions for i in range(inner)]
        return positions, tuple(shape) + tuple(rest)

    def __getitem__(self, key):
        if self.ndim == 1 and isinstance(key, _b.int):
            return self._d[key]
        if isinstance(key, ndarray) and key.dtype is bool_:
            picked = [v for v, m in zip(self._d, _broadcast(key, self.shape)) if m]
            return ndarray(picked, (len(picked),), self.dtype)
        positions, shape = self._select(key)
        if not shape:
            return self._d[positions[0]]
        return ndarray([self._d[p] for p in positions], shape, self.dtype, copy_of_slice=True)

    def __setitem__(self, key, value):
        if self._slice_copy:
            raise NotImplementedError("the numpy stand-in's slices are copies: write to the array it came from")
        if self.ndim == 1 and isinstance(key, _b.int):
            self._d[key] = _cast_list([value], self.dtype)[0]
            return
        if isinstance(key, ndarray) and key.dtype is bool_:
            mask = _broadcast(key, self.shape)
            v = _cast_list([value], self.dtype)[0] if not isinstance(value, ndarray) else None
            if v is None:
                raise NotImplementedError("the numpy stand-in assigns only a scalar through a mask")
            for i, m in enumerate(mask):
                if m:
                    self._d[i] = v
            return
        positions, shape = self._select(key)
        values = _cast_list(_broadcast(asarray(value), shape), self.dtype)
        for p, v in zip(positions, values):
            self._d[p] = v

    # arithmetic
    def __add__(self, o): return _binary(self, o, _add)
    def __radd__(self, o): return _binary(o, self, _add)
    def __sub__(self, o): return _binary(self, o, _sub)
    def __rsub__(self, o): return _binary(o, self, _sub)
    def __mul__(self, o): return _binary(self, o, _mul)
    def __rmul__(self, o): return _binary(o, self, _mul)
    def __truediv__(self, o): return _binary(self, o, _div, true_div=True)
    def __rtruediv__(self, o): return _binary(o, self, _div, true_div=True)
    def __pow__(self, o): return _binary(self, o, _pow)
    def __lt__(self, o): return _binary(self, o, lambda a, b: a < b, compare=True)
    def __le__(self, o): return _binary(self, o, lambda a, b: a <= b, compare=True)
    def __gt__(self, o): return _binary(self, o, lambda a, b: a > b, compare=True)
    def __ge__(self, o): return _binary(self, o, lambda a, b: a >= b, compare=True)
    def __eq__(self, o): return _binary(self, o, lambda a, b: a == b, compare=True)
    def __ne__(self, o): return _binary(self, o, lambda a, b: a != b, compare=True)
    def __neg__(self): return ndarray([-v for v in self._d], self.shape, self.dtype)

    def __invert__(self):
        if self.dtype is bool_:
            return ndarray([not v for v in self._d], self.shape, bool_)
        if self.dtype.kind != "i":
            raise TypeError("ufunc 'invert' not supported for the input types")
        return ndarray([~v for v in self._d], self.shape, self.dtype)
    def __abs__(self): return absolute(self)
    def __matmul__(self, o): return dot(self, o)
    def __rmatmul__(self, o): return dot(o, self)
    __hash__ = None

    def _inplace(self, o, f):
        r = _binary(self, o, f)
        if r.shape != self.shape:
            raise ValueError("non-broadcastable output operand with shape %r" % (self.shape,))
        self._d[:] = _cast_list(r._d, self.dtype)
        return self

    def __iadd__(self, o): return self._inplace(o, _add)
    def __isub__(self, o): return self._inplace(o, _sub)
    def __imul__(self, o): return self._inplace(o, _mul)
    def __itruediv__(self, o): return self._inplace(o, _div)

    def dot(self, o): return dot(self, o)
    def sum(self, axis=None): return sum(self, axis)
    def mean(self, axis=None): return mean(self, axis)
    def std(self, axis=None): return std(self, axis)
    def max(self, axis=None): return amax(self, axis)
    def min(self, axis=None): return amin(self, axis)
    def argmax(self, axis=None): return argmax(self, axis)

    def __repr__(self):
        return "array(%r)" % (self.tolist(),)

    __str__ = __repr__


class _NativeCopy:
    """A copy of an array's values in memory that ctypes allocates; `data` is its address (an int)."""

    def __init__(self, values, dt):
        import ctypes
        kind = {("f", 64): ctypes.c_double, ("f", 32): ctypes.c_float, ("i", 64): ctypes.c_int64,
                ("i", 32): ctypes.c_int32, ("b", 8): ctypes.c_bool}[(dt.kind, dt.bits)]
        self.values = list(values)
        self._buffer = (kind * len(values))(*values)
        # GraalPy's ctypes.addressof is a number of its own, not where the buffer's bytes lie; a cast to c_void_p
        # gives their native address (a plain int, as numpy's `data` is), valid while this object holds _buffer
        self.data = ctypes.cast(self._buffer, ctypes.c_void_p).value


def _add(a, b): return a + b
def _sub(a, b): return a - b
def _mul(a, b): return a * b


def _div(a, b):
    if b == 0:
        return nan if a == 0 or a != a else _m.copysign(inf, a) * _m.copysign(1.0, b)
    return a / b


def _pow(a, b):
    try:
        return a ** b
    except OverflowError:
        return inf


def asarray(x, dtype=None):
    if isinstance(x, ndarray) and dtype is None:
        return x
    return array(x, dtype)


def array(obj, dtype=None):
    dt = _as_dtype(dtype)
    if isinstance(obj, ndarray):
        return ndarray(_cast_list(obj._d, dt) if dt else list(obj._d), obj.shape, dt or obj.dtype)
    flat = []
    _flatten(obj, flat)
    if dt is None:
        dt = float64 if any(isinstance(v, _b.float) for v in flat) else (
            bool_ if flat and all(isinstance(v, _b.bool) for v in flat) else int64)
        if not flat:
            dt = float64
    shape = _nested_shape(obj)
    if _prod(shape) != len(flat):
        raise ValueError("setting an array element with a sequence: the nested lists are ragged")
    return ndarray(_cast_list(flat, dt), shape, dt)


def _broadcast_shape(a, b):
    n = _b.max(len(a), len(b))
    a, b = (1,) * (n - len(a)) + tuple(a), (1,) * (n - len(b)) + tuple(b)
    out = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise ValueError("operands could not be broadcast together with shapes %r %r" % (a, b))
        out.append(_b.max(x, y))
    return tuple(out)


def _broadcast(a, shape):
    """a's values repeated to fill shape, as a flat list."""
    shape = tuple(shape)
    if a.shape == shape:
        return a._d
    if a.size == 1:
        return a._d * _prod(shape)
    pad = len(shape) - a.ndim
    src = (1,) * pad + a.shape
    st = [0 if d == 1 else s for d, s in zip(src, _strides(src))]
    positions = [0]
    for n, s in zip(shape, st):
        positions = [p + i * s for p in positions for i in range(n)]
    return [a._d[p] for p in positions]


def _binary(x, y, f, true_div=False, compare=False):
    xa, ya = isinstance(x, ndarray), isinstance(y, ndarray)
    if not xa and not ya:
        return f(x, y)
    if xa and ya:
        dt = _promote(x.dtype, y.dtype)
    elif xa:
        dt = _weak(x.dtype, y)
        y = ndarray([y], (), _scalar_dtype(y))
    else:
        dt = _weak(y.dtype, x)
        x = ndarray([x], (), _scalar_dtype(x))
    if true_div and dt.kind != "f":
        dt = float64
    if compare:
        dt = bool_
    shape = _broadcast_shape(x.shape, y.shape)
    out = [f(p, q) for p, q in zip(_broadcast(x, shape), _broadcast(y, shape))]
    return ndarray(out if compare else _cast_list(out, dt), shape, dt)


def _unary(x, f, int_to_float=True):
    if isinstance(x, ndarray):
        dt = x.dtype if (x.dtype.kind == "f" or not int_to_float) else float64
        return ndarray(_cast_list([f(v) for v in x._d], dt), x.shape, dt)
    if isinstance(x, (list, tuple)):
        return _unary(array(x), f, int_to_float)
    return f(x)


def exp(x): return _unary(x, lambda v: _m.exp(v) if v < 709.78 else inf)
def log(x): return _unary(x, lambda v: _m.log(v) if v > 0 else (-inf if v == 0 else nan))
def sqrt(x): return _unary(x, lambda v: _m.sqrt(v) if v >= 0 else nan)
def ceil(x): return _unary(x, lambda v: _b.float(_m.ceil(v)))
def absolute(x): return _unary(x, _b.abs, int_to_float=False)
abs = absolute
def maximum(x, y): return _binary(x, y, lambda a, b: a if (a >= b or a != a) else b)
def minimum(x, y): return _binary(x, y, lambda a, b: a if (a <= b or a != a) else b)


def _reduce(x, axis, f, result="same"):
    """f applied to the values along axis (all values when axis is None); result: the type of what f gives
    ("same" as the array's, "float": float64 for an integer array, "int": int64)."""
    a = asarray(x)
    if axis is None or a.ndim <= 1:
        return f(a._d, a.dtype)
    if axis < 0:
        axis += a.ndim
    rest = a.shape[:axis] + a.shape[axis + 1:]
    n, inner = a.shape[axis], _prod(a.shape[axis + 1:])
    out = []
    for outer in range(_prod(a.shape[:axis])):
        base = outer * n * inner
        for i in range(inner):
            out.append(f([a._d[base + k * inner + i] for k in range(n)], a.dtype))
    if result == "int":
        dt = int64
    elif result == "float" and a.dtype.kind != "f":
        dt = float64
    else:
        dt = int64 if a.dtype is bool_ else a.dtype
    return ndarray(out, rest, dt)


def _mean_list(v, dt):
    return _sum_list(v, dt if dt.kind == "f" else float64) / len(v)


def _std_list(v, dt):
    m = _mean_list(v, dt)
    return _m.sqrt(_mean_list([(x - m) * (x - m) for x in v], float64 if dt.kind != "f" else dt))


def sum(x, axis=None): return _reduce(x, axis, _sum_list)
def mean(x, axis=None): return _reduce(x, axis, _mean_list, "float")
def std(x, axis=None): return _reduce(x, axis, _std_list, "float")
def amax(x, axis=None): return _reduce(x, axis, lambda v, dt: _b.max(v))
def amin(x, axis=None): return _reduce(x, axis, lambda v, dt: _b.min(v))
def argmax(x, axis=None): return _reduce(x, axis, lambda v, dt: _b.max(range(len(v)), key=lambda i: (v[i], -i)), "int")
max, min = amax, amin


def transpose(x):
    a = asarray(x)
    if a.ndim < 2:
        return a
    if a.ndim != 2:
        raise NotImplementedError("the numpy stand-in transposes only 1-d and 2-d arrays")
    r, c = a.shape
    return ndarray([a._d[i * c + j] for j in range(c) for i in range(r)], (c, r), a.dtype)


def _dot_list(p, q, dt):
    return _sum_list([u * v for u, v in zip(p, q)], dt)


def dot(x, y):
    a, b = asarray(x), asarray(y)
    dt = _promote(a.dtype, b.dtype)
    if a.ndim == 1 and b.ndim == 1:
        if a.size != b.size:
            raise ValueError("shapes (%d,) and (%d,) not aligned" % (a.size, b.size))
        return _dot_list(a._d, b._d, dt)
    if a.ndim == 2 and b.ndim == 1:
        r, c = a.shape
        return ndarray([_dot_list(a._d[i * c:(i + 1) * c], b._d, dt) for i in range(r)], (r,), dt)
    if a.ndim == 1 and b.ndim == 2:
        return dot(transpose(b), a)
    if a.ndim == 2 and b.ndim == 2:
        bt = transpose(b)
        r, k = a.shape
        c = b.shape[1]
        rows = [a._d[i * k:(i + 1) * k] for i in range(r)]
        cols = [bt._d[j * k:(j + 1) * k] for j in range(c)]
        return ndarray([_dot_list(row, col, dt) for row in rows for col in cols], (r, c), dt)
    raise NotImplementedError("the numpy stand-in multiplies only 1-d and 2-d arrays")


matmul = dot


def atleast_2d(x):
    a = asarray(x)
    return ndarray(list(a._d), (1,) * (2 - a.ndim) + a.shape, a.dtype) if a.ndim < 2 else a


def shape(x):
    return asarray(x).shape


def _full(shape, value, dt):
    if not isinstance(shape, (tuple, list)):
        shape = (shape,)
    shape = tuple(_b.int(d) for d in shape)
    dt = _as_dtype(dt) or float64
    return ndarray(_cast_list([value], dt) * _prod(shape), shape, dt)


def zeros(shape, dtype=None): return _full(shape, 0, dtype)
def ones(shape, dtype=None): return _full(shape, 1, dtype)


def arange(start, stop=None, step=1):
    if stop is None:
        start, stop = 0, start
    n = _b.max(0, _m.ceil((stop - start) / step))
    vals = [start + i * step for i in range(n)]
    dt = float64 if any(isinstance(v, _b.float) for v in (start, stop, step)) else int64
    return ndarray(_cast_list(vals, dt), (n,), dt)


def linspace(start, stop, num=50):
    num = _b.int(num)
    if num == 1:
        return ndarray([_b.float(start)], (1,), float64)
    step = (stop - start) / (num - 1)
    vals = [i * step + start for i in range(num)]
    vals[-1] = _b.float(stop)
    return ndarray(vals, (num,), float64)


def isscalar(x):
    return isinstance(x, (_b.int, _b.float, _b.bool, _b.complex))


class _Random:
    """np.random: its own Mersenne Twister, apart from Python's `random` module (as numpy's generator is)."""

    def __init__(self):
        self._g = _r.Random()

    def seed(self, s=None):
        self._g.seed(s)

    def _fill(self, size, draw):
        if size is None:
            return draw()
        shape = tuple(size) if isinstance(size, (tuple, list)) else (_b.int(size),)
        return ndarray([draw() for _ in range(_prod(shape))], shape, float64)

    def random_sample(self, size=None):
        return self._fill(size, self._g.random)

    random = random_sample

    def rand(self, *shape):
        return self.random_sample(shape if shape else None)

    def uniform(self, low=0.0, high=1.0, size=None):
        return self._fill(size, lambda: low + (high - low) * self._g.random())

    def randint(self, low, high=None, size=None, dtype=None):
        if high is None:
            low, high = 0, low
        r = self._fill(size, lambda: self._g.randrange(low, high))
        if isinstance(r, ndarray):
            dt = _as_dtype(dtype) or int64
            r = ndarray(_cast_list(r._d, dt), r.shape, dt)
        return r


random = _Random()
