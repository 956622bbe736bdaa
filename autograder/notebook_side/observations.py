"""What a test cell observes of an answer, as plain data, and the computations the hidden tests give it.

A test cell calls the student's code through `observe`, which turns what came back into plain data
(JSON: numbers as arrays with their dtype and shape, dicts, lists, None) and gives the checks that
data, never the objects themselves. While the course's grader runs the notebook, `observe` also
shows the data as an output of the cell, and the grader judges it outside the kernel with the same
checks (autograder/grading/judge.py): what the kernel's checks say earns nothing there.

The hidden tests call each exercise on computations made while grading, with pieces whose recorded
gradient differs from the mathematical derivative (`scaled_gradient`, `tf.stop_gradient`, an integer
cast): only values a tape recorded match, a closed form or finite
differences do not. `RunCounter` counts how often the computation itself runs, in its own graph.
"""
import base64
import os
import zlib

import numpy as np

from .doctor import tape_doctor

OBSERVATION_MIME = "application/vnd.course.observation+json"
OBSERVING = "COURSE_OBSERVE"  # set by the grader: show each observation as an output
GRADING_SEED = "COURSE_GRADING_SEED"  # set by the grader: the hidden tests' computations differ per submission
MAX_OBSERVED_BYTES = 4 * 2 ** 20  # an answer's data, encoded; larger is reported, not sent
MAX_DEPTH = 12  # dicts and lists nested deeper are not an answer's


class Unreadable:
    """What came back that is not data (a function, a model, a generator): named by its type and repr."""

    def __init__(self, kind, text):
        self.kind, self.text = kind, text

    def __repr__(self):
        return self.text

    def __eq__(self, other):
        return isinstance(other, Unreadable) and (self.kind, self.text) == (other.kind, other.text)


class StudentCodeRaised(AssertionError):
    """The student's code raised while a test cell observed it (in the judge: what the kernel reported)."""

    def __init__(self, label, name, message):
        super().__init__(f"{label}: your code raised {name}: {message}")
        self.name, self.message = name, message


class Observation:
    """Plain data to and from an answer's values (as a class: a student's own names cannot shadow its helpers)."""

    DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
              "float16", "float32", "float64", "complex64", "complex128")

    @classmethod
    def encode(cls, value, depth=0):
        """`value` as JSON-ready data."""
        if depth > MAX_DEPTH:
            return {"object": "nest", "repr": f"a nest of dicts and lists more than {MAX_DEPTH} deep"}
        if value is None or isinstance(value, bool):
            return value if value is None else cls._array(np.asarray(value))
        if isinstance(value, str):
            return {"str": value[:1000]}
        if isinstance(value, dict):
            return {"dict": [[key if isinstance(key, (str, int)) else repr(key), cls.encode(item, depth + 1)]
                             for key, item in value.items()]}
        if isinstance(value, (list, tuple)):
            return {type(value).__name__ if type(value) in (list, tuple) else "list":
                    [cls.encode(item, depth + 1) for item in value]}
        array = cls._numbers(value)
        if array is None:
            return {"object": type(value).__name__, "repr": f"{value!r:.200}"}
        return cls._array(array)

    @staticmethod
    def _numbers(value):
        """A NumPy array of the value's numbers, or None when it holds none."""
        if hasattr(value, "values") and hasattr(value, "indices") and hasattr(value, "dense_shape"):
            import tensorflow as tf  # IndexedSlices (the gradient of tf.gather): the dense tensor

            value = tf.convert_to_tensor(value)
        if hasattr(value, "numpy"):
            try:
                value = value.numpy()
            except Exception:  # a symbolic tensor, out of its graph
                return None
        if isinstance(value, (int, float, complex, np.ndarray, np.generic)):
            array = np.asarray(value)
            if array.dtype.name == "bfloat16":
                array = array.astype(np.float32)
            return array if array.dtype.name in Observation.DTYPES else None
        return None

    @staticmethod
    def _array(array):
        array = np.array(array, order="C")  # (ascontiguousarray would make a 0-d array 1-d)
        return {"array": base64.b64encode(array.tobytes()).decode("ascii"), "dtype": array.dtype.name,
                "shape": list(array.shape)}

    @classmethod
    def decode(cls, data, depth=0):
        """The value `encode` gave `data` for (arrays as NumPy arrays); ValueError when it is not such data."""
        if depth > MAX_DEPTH + 1:
            raise ValueError("nested too deep")
        if data is None:
            return None
        if not isinstance(data, dict) or len(data) not in (1, 2, 3):
            raise ValueError(f"not an observed value: {str(data)[:80]}")
        if "array" in data:
            dtype, shape = data.get("dtype"), data.get("shape")
            if dtype not in cls.DTYPES or not isinstance(shape, list) or len(shape) > 32 or not all(
                    isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in shape):
                raise ValueError("an array without a known dtype and shape")
            raw = base64.b64decode(data["array"], validate=True)
            if len(raw) != int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize:
                raise ValueError("an array whose data does not fit its shape")
            array = np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
            return array[()] if not shape and dtype == "bool" else array
        if set(data) == {"object", "repr"} and all(isinstance(item, str) for item in data.values()):
            return Unreadable(data["object"][:100], data["repr"][:200])
        if len(data) != 1:
            raise ValueError(f"not an observed value: {str(data)[:80]}")
        (kind, content), = data.items()
        if kind == "str" and isinstance(content, str):
            return content
        if kind == "dict" and isinstance(content, list):
            if not all(isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], (str, int)) for pair in content):
                raise ValueError("a dict whose entries are not [key, value]")
            return {key: cls.decode(item, depth + 1) for key, item in content}
        if kind in ("list", "tuple") and isinstance(content, list):
            items = [cls.decode(item, depth + 1) for item in content]
            return items if kind == "list" else tuple(items)
        raise ValueError(f"not an observed value: {str(data)[:80]}")

    @staticmethod
    def show(record):
        """Show the record as an output of the cell, for the grader (never drawn: no renderer has its type)."""
        from IPython.display import display

        display({OBSERVATION_MIME: record}, raw=True)


def observe(label, compute, count=None):
    """What `compute()` (a call of the student's code) returns, as plain data: NumPy arrays (dtype kept),
    dicts, lists, tuples, None, strings; anything else as an Unreadable naming its type.

    label: names this observation in its cell (unique in the cell, or the same for each round of a loop).
    count: a RunCounter of the computation handed to the student's code: then (value, {"runs": ..., "elements":
           ...}) is returned, read after compute() ended.
    An exception of the student's code is raised again after it is observed. Outside grading, the gradient
    doctor watches the call quietly, so a check that then meets a None names its cause; while graded, nothing
    but the student's code runs.
    """
    import contextlib
    import json

    record = {"label": str(label)}
    graded = bool(os.environ.get(OBSERVING))
    try:
        with contextlib.nullcontext() if graded else tape_doctor(report=False, observe=False):
            value = compute()
    except Exception as error:
        record["raised"] = [type(error).__name__, f"{error}"[:2000]]
        value, raised = None, error
    else:
        record["value"] = Observation.encode(value)
        raised = None
    if count is not None:
        record["counts"] = count.read()
    if len(json.dumps(record.get("value"))) > MAX_OBSERVED_BYTES:
        record["value"] = {"object": "too large", "repr": f"an answer of more than {MAX_OBSERVED_BYTES // 2 ** 20} MiB"}
    if graded:
        Observation.show(record)
    if raised is not None:
        raise raised
    value = Observation.decode(record["value"])
    return value if count is None else (value, record["counts"])


class RunCounter:
    """A computation for the student's code, with counters in its own graph: how often it ran, and on how many
    numbers in all (the size of its first argument, summed over runs).

        square = RunCounter(lambda x: x * x); answer = student_function(square, x); square.read()

    The counters are tf.Variables the computation updates as it runs: under tf.function, in helpers, through
    wrappers, every run of the computation counts once, and a trace alone counts nothing.
    """

    def __init__(self, function, name=None):
        import tensorflow as tf

        self.function = function
        self.__name__ = name or getattr(function, "__name__", "the computation")
        self.runs = tf.Variable(0, dtype=tf.int64, trainable=False)
        self.elements = tf.Variable(0, dtype=tf.int64, trainable=False)

    def __call__(self, *args, **kwargs):
        import tensorflow as tf

        self.runs.assign_add(1)
        if args and (tf.is_tensor(args[0]) or isinstance(args[0], (float, int, list, np.ndarray, np.generic))):
            self.elements.assign_add(tf.size(args[0], out_type=tf.int64))
        return self.function(*args, **kwargs)

    def read(self):
        return {"runs": int(self.runs.numpy()), "elements": int(self.elements.numpy())}


def grading_rng(label):
    """A random generator for a hidden test's computation: seeded per submission while grading (so the grader,
    which is given the same seed, builds the same computation), from the OS's entropy otherwise."""
    seed = os.environ.get(GRADING_SEED)
    return np.random.default_rng([int(seed), zlib.crc32(str(label).encode())] if seed else None)


def scaled_gradient(factor):
    """The identity, recorded with derivative `factor`: x ↦ factor·x + stop_gradient(x − factor·x). Its value is x
    and its textbook derivative 1, but a tape (and a forward accumulator, which a tf.custom_gradient's rule would
    not reach) records `factor`. A hidden test's piece that only the tape's own numbers follow."""
    import tensorflow as tf

    def identity(x):
        scaled = tf.cast(factor, x.dtype) * x
        return scaled + tf.stop_gradient(x - scaled)
    return identity


def integer_step(x, scale=1.0):
    """floor(scale·x) through an integer cast: a tape records no path through it (the gradient is None, counted as 0
    in a sum), while finite differences jump at each step."""
    import tensorflow as tf

    return tf.cast(tf.cast(tf.floor(x * tf.cast(scale, x.dtype)), tf.int32), x.dtype)
