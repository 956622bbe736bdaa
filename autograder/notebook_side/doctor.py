"""The gradient doctor: says why a gradient came back None or NaN, and how to fix it.

Two ways to call it:

    gradient_doctor(compute, sources)   # a computation: compute(*sources) returns the target
    with tape_doctor():                 # tape code as written: every gradient call in the block
        ...

Both record the operations the code runs (doctor_recorder.py) and walk them from each source to
the target (doctor_graph.py): each finding names one of the causes in CAUSES (doctor_causes.py),
the source it is about, and the learner's line where the path breaks.
"""
import inspect
import linecache
import re
import sys
import traceback
import types

import numpy as np

from .doctor_causes import CAUSES, Finding, Findings, show_causes  # noqa: F401 (the doctor's public names)
from .doctor_graph import ALREADY_NAN, Walk, _finite, _has_value, _valued_recorder
from .doctor_graph import _where as _where_of
from .doctor_recorder import _TOOL_FILES, Recorder, TapeRecord, _code_line, _is_variable, _learner_file
from .doctor_recorder import _learner_place, _library_file, _names_of, _raw_variable  # noqa: F401 (checks use _library_file)

_TOOL_FILES.add(sys._getframe().f_code.co_filename)


def _source_label(source, index):
    """How the learner knows a source: a Keras path, a Variable's name, or its position."""
    path = getattr(source, "path", None)
    if isinstance(path, str):
        return path
    if _is_variable(source):
        return source.name.split(":")[0]
    return index if isinstance(index, str) else f"source {index}"


def _is_integer(value):
    import tensorflow as tf

    dtype = getattr(value, "dtype", None)
    if isinstance(dtype, str):  # a Keras Variable's dtype is its name
        try:
            dtype = tf.as_dtype(dtype)
        except TypeError:
            return False
    if dtype is None:
        return False
    return not getattr(dtype, "is_floating", True) and not getattr(dtype, "is_complex", False)


def _dtype_text(value):
    dtype = getattr(value, "dtype", None)
    return dtype if isinstance(dtype, str) else getattr(dtype, "name", str(dtype))


def _finite_gradient(gradient):
    """True for a gradient with only finite entries (an IndexedSlices, from an embedding, by its values)."""
    values = getattr(gradient, "values", None)
    return _finite(values if values is not None and not callable(values) else gradient)


def _named_sources(sources):
    """[(name, source)] for one source, a list or tuple, or a dict."""
    if isinstance(sources, dict):
        return [(str(key), value) for key, value in sources.items()]
    if isinstance(sources, (list, tuple)):
        return [(index, value) for index, value in enumerate(sources)]
    return [(0, sources)]


# ---------------------------------------------------------------- a computation: gradient_doctor

class Diagnosis(Findings):
    """gradient_doctor's answer for one computation."""

    def __init__(self, findings, sources_seen="", asked=1, already_nan=()):
        self.findings = list(findings)
        self.asked = asked
        self.already_nan = list(already_nan)
        self._seen = sources_seen

    def all_well(self):
        if self._seen:
            return f"connected: every gradient ({self._seen}) is a finite tensor."
        return super().all_well()


def gradient_doctor(compute, sources):
    """Say, for each source, whether the gradient of compute's result reaches it, and if not, why.

    compute: a function returning the target: called as compute(*sources) for a list or tuple,
             compute(sources) for one source or a dict, compute() when it takes no parameters
             (or only parameters with defaults, which the sources do not fit).
             It runs once, as the program would run it.
    sources: tensors and Variables (a Keras model's trainable_variables, say).
    Prints nothing itself; the returned Diagnosis shows as text in a notebook.
    """
    import tensorflow as tf

    named = _named_sources(sources)
    if not isinstance(sources, dict):
        try:
            parameters = list(inspect.signature(compute).parameters)
        except (TypeError, ValueError):
            parameters = []
        if len(parameters) == len(named):
            named = [(parameters[index], value) for index, value in named]
    names = [_source_label(value, key) for key, value in named]
    findings = []
    mixed = any(_is_variable(value) and _raw_variable(value).trainable for _, value in named)
    for name, (_, value) in zip(names, named):
        if not (tf.is_tensor(value) or _is_variable(value)):
            findings.append(Finding(name, "not_watched", f"a {type(value).__name__}, not a tensor: a tape watches "
                                    "tensors and Variables only (tf.convert_to_tensor it first)", ""))
        elif _is_integer(value):
            findings.append(Finding(name, "integer_dtype", f"its dtype is {_dtype_text(value)}", ""))
        elif _is_variable(value) and not _raw_variable(value).trainable and mixed and _keras_own(value):
            findings.append(Finding(name, "wrong_variables", "a layer's non-trainable variable (a moving mean, "
                                    "say) among trainable ones: the list has the model's non-trainable variables "
                                    "too (model.variables?)", ""))
        elif _is_variable(value) and not _raw_variable(value).trainable:
            findings.append(Finding(name, "not_trainable", "trainable=False: a tape does not watch it by "
                                    "itself (the doctor watched it to look further)", ""))
    defined = _namespace_of(compute)
    findings = [finding._replace(where=finding.where or _definition_line(defined, value) or _bound_line(defined, value))
                if finding.cause in ("not_trainable", "integer_dtype") else finding
                for finding, (_, value) in _with_values(findings, zip(names, named))]
    found = {finding.source for finding in findings}
    watchable = [(name, value) for name, (_, value) in zip(names, named) if name not in found]
    with tape_doctor(report=False) as doctor:  # also sees the tapes inside compute (a gradient penalty)
        with tf.GradientTape(persistent=True) as tape:
            doctor.recorder.tapes[id(tape)].library = None  # the doctor's own tape
            for _, value in watchable:
                tape.watch(_raw_variable(value) if _is_variable(value) else value)
            try:
                target = _call_compute(compute, sources)
            except Exception:
                if not doctor.findings:
                    raise
                target = None
            last = next((step.place for step in reversed(doctor.recorder.steps) if step.place is not None), None)
        if target is None:  # the line of the last operation compute ran: the result it forgot to return
            return Diagnosis(doctor.findings + findings or
                             [Finding("the target", "no_target", "compute(...) returned None; its last operation "
                                      "ran here", str(last or ""))])
        if not tf.is_tensor(target):
            target = _as_tensor(target)
            if target is None:
                return Diagnosis(doctor.findings + findings + [
                    Finding("the target", "left_tensorflow", "compute(...) returned a NumPy or Python value, "
                            "not a tensor", _returned_line(compute))])
        doctor.compute_arrays = _arrays_seen_by(compute)
        doctor.diagnose(tape, target, watchable)
        recorder = doctor.recorder
        made_before = {id(tensor) for step in recorder.steps for tensor in step.inputs
                       if id(tensor) not in recorder.producer and type(tensor).__name__ == "EagerTensor"}
    values = dict(zip(names, (value for _, value in named)))
    for index, finding in enumerate(doctor.findings):
        if finding.cause == "unused" and _is_variable(values.get(finding.source)):
            kept = _kept_from(made_before, defined, values[finding.source])
            if kept:
                doctor.findings[index] = Finding(finding.source, "outside_tape", "compute never reads it, but it "
                                                 "reads a tensor computed from it before compute ran", kept)
    return Diagnosis(doctor.findings + findings, ", ".join(str(name) for name in names), asked=len(named),
                     already_nan=doctor.already_nan)


def _kept_from(made_before, namespace, variable):
    """The line that computed a tensor the computation read, from `variable`, before the computation ran: a
    profile kept by an object (`self.profiles = tf.matmul(features, self.proj)` in its constructor) or a global.
    The doctor records only what compute runs, so this is read from the lines that bound such tensors."""
    if namespace is None:
        return ""
    objects = [(type(value), _attributes(value)) for value in namespace.f_globals.values()
               if not isinstance(value, (type, types.ModuleType, types.FunctionType))]
    known = {_source_label(variable, "")} | set(_names_of(namespace, variable)) | {
        name for _, attributes in objects for name, value in attributes.items() if value is variable}
    bindings = [(name, owner) for owner, attributes in objects for name, value in attributes.items()
                if id(value) in made_before]
    bindings += [(name, None) for name, value in namespace.f_globals.items()
                 if id(value) in made_before and not name.startswith("_")]
    for name, owner in bindings:
        filename = namespace.f_code.co_filename
        if owner is not None:  # the file its methods were compiled from (a script's class says __main__)
            filename = next((method.__code__.co_filename for method in vars(owner).values()
                             if inspect.isfunction(method)), filename)
        prefix = r"self\." if owner is not None else ""
        bound = re.compile(rf"\s*{prefix}{re.escape(name)}\s*=[^=]")
        for number, line in enumerate(linecache.getlines(filename), start=1):
            if bound.match(line) and any(re.search(rf"\b{re.escape(word)}\b", line.split("=", 1)[1])
                                         for word in known if word):
                return _code_line(filename, number)
    return ""


def _attributes(value):
    try:
        return dict(vars(value))
    except TypeError:  # no __dict__
        return {}


def _as_tensor(value):
    """A NumPy or Python target has left TensorFlow: None then (a tensor inside a list or tuple is kept)."""
    import tensorflow as tf

    if isinstance(value, (list, tuple)) and value and all(tf.is_tensor(item) for item in value):
        return tf.add_n([tf.reduce_sum(item) for item in value])
    return None


def _returned_line(compute):
    try:
        lines, first = inspect.getsourcelines(compute)
        filename = inspect.getsourcefile(compute)
    except (OSError, TypeError):
        return ""
    for offset, line in reversed(list(enumerate(lines))):
        if line.strip().startswith("return") or "lambda" in line:
            return _code_line(filename, first + offset)
    return ""


def _call_compute(compute, sources):
    arguments = tuple(sources) if isinstance(sources, (list, tuple)) else (sources,)
    try:
        signature = inspect.signature(compute)
    except (TypeError, ValueError):
        return compute(*arguments)
    try:
        signature.bind(*arguments)
    except TypeError:  # a loss(margin=0.3) the program calls as loss(): the sources do not fit its parameters
        try:
            signature.bind()
        except TypeError:
            pass
        else:
            return compute()
    return compute(*arguments) if signature.parameters else compute()


# ---------------------------------------------------------------- tape code as written: tape_doctor

_RECENT = []  # the findings of the last silent tape_doctor (a check's TapeCalls block)


def doctor_says():
    """The doctor's findings from the student's code the last check ran (in a TapeCalls block), as text."""
    if not _RECENT:
        return ""
    seen, lines = set(), []
    for finding in _RECENT:
        if (finding.source, finding.cause) not in seen:
            seen.add((finding.source, finding.cause))
            where = f" ({finding.where})" if finding.where else ""
            lines.append(f"{finding.source}: {CAUSES[finding.cause].title}{where}. Fix: {CAUSES[finding.cause].fix}.")
    return "The gradient doctor looked at your tape code: " + " ".join(lines)


class tape_doctor(Findings):
    """Watch every tape used in a block; say why each gradient that comes back None or NaN does.

        with tape_doctor():
            ... tape code as you wrote it ...

    Prints its findings when the block ends (report=False keeps quiet); `.findings`, `.causes`,
    `.connected` (true only when gradients were asked for and all came back finite tensors).
    The tapes Keras opens in model.fit are watched too, and the tapes inside a tf.function as it is traced;
    a tf.function traced before the block is traced once more (not run) when its result holds a None or a NaN.
    """

    METHODS = ("__enter__", "__exit__", "watch", "gradient", "jacobian", "batch_jacobian")

    def __init__(self, report=True, observe=True):
        self.report = report
        self.observe = observe

    def __enter__(self):
        import tensorflow as tf

        self.findings = []
        self.already_nan = []  # sources whose NaN came from a Variable that held NaN before (no cause in sight)
        self.asked = 0
        self.error = None
        self._said = set()
        self._said_at = {}  # (source, the gradient call's place) -> the first finding said for it
        self._were_variables = set()  # names that held a Variable when a gradient was asked for it
        self.recorder = Recorder()
        self.recorder.on_call = self._check_function_call
        self.recorder.before_function = self._before_function
        self.recorder.on_function = self._after_function
        self._retraced = set()
        self._symbolic = []  # (gradient, label, source, target, place) asked while a tf.function was traced
        self._checked = []  # those whose values a run showed finite (later runs are checked again)
        self._pruned = {}
        self._calls_checked = {}  # id(graph) -> how many of its runs were checked for NaN gradients
        self._observer = None
        if self.observe:  # one tape that records the whole block: the adjoints that locate a NaN
            self._observer = tf.GradientTape(persistent=True)
            self._observer.__enter__()
        self._saved = [(name, tf.GradientTape.__dict__[name]) for name in self.METHODS]
        for name, original in self._saved:
            setattr(tf.GradientTape, name, getattr(self, "_" + name.strip("_"))(original))
        self.recorder.start()
        return self

    def __exit__(self, kind, error, trace):
        import tensorflow as tf

        self.recorder.stop()
        for name, original in self._saved:
            setattr(tf.GradientTape, name, original)
        if self._observer is not None:
            self._observer.__exit__(None, None, None)
            self._observer = None
        self.unchecked = len(self._symbolic)  # asked under tf.function; no run of theirs was checked
        if isinstance(error, Exception):
            self.error = error
            if not self.findings:
                self._from_error(error, trace)
        self.recorder = None
        _RECENT[:] = self.findings
        if self.report:  # also when the block raised: a None found here is often why
            print(self)
        return False

    # -- the tape's methods, wrapped
    def _enter(self, original):
        def enter(tape):
            with _never_fails():
                recorder = self.recorder
                caller = sys._getframe(1)
                if not recorder.open:
                    recorder.trim()
                place = _learner_place(caller)
                library = not _learner_file(caller.f_code.co_filename) and caller.f_code.co_filename not in _TOOL_FILES
                record = TapeRecord(tape, place, recorder.tick(), library)
                recorder.tapes[id(tape)] = record
                recorder.all_tapes.append(record)
                recorder.open.append(record)
            return original(tape)
        return enter

    def _exit(self, original):
        def exit_(tape, *exc):
            with _never_fails():
                record = self.recorder.tapes.get(id(tape))
                if record is not None and record.exited is None:
                    record.exited = self.recorder.tick()
                    if record in self.recorder.open:
                        self.recorder.open.remove(record)
            return original(tape, *exc)
        return exit_

    def _watch(self, original):
        def watch(tape, tensor):
            with _never_fails():
                import tensorflow as tf

                record = self.recorder.tapes.get(id(tape))
                caller = sys._getframe(1)
                if record is not None:
                    for item in tf.nest.flatten(tensor):
                        record.watched.append((item, _names_of(caller, item), _learner_place(caller),
                                               self.recorder.tick()))
                if self._observer is not None:
                    original(self._observer, tensor)
            return original(tape, tensor)
        return watch

    def _gradient(self, original):
        def gradient(tape, target, sources, *args, **kwargs):
            before = None
            with _never_fails():
                before = self._before_gradient(tape, target, sys._getframe(1))
            if before is not None:
                self.recorder.gradients.append(tape)
            try:
                result = original(tape, target, sources, *args, **kwargs)
            finally:
                if before is not None:
                    self.recorder.gradients.pop()
            if before is not None:
                with _never_fails(), _paused(self.recorder):
                    self._after_gradient(tape, target, sources, result, *before)
            return result
        return gradient

    def _jacobian(self, original):
        def jacobian(tape, target, sources, *args, **kwargs):
            self.recorder.gradients.append(tape)  # its operations belong to this tape's derivative
            try:
                result = original(tape, target, sources, *args, **kwargs)
            finally:
                self.recorder.gradients.pop()
            with _never_fails(), _paused(self.recorder):
                import tensorflow as tf

                self.asked += len(tf.nest.flatten(sources))
                for source, value in zip(tf.nest.flatten(sources), tf.nest.flatten(result)):
                    if value is None:
                        self._add(Finding(_source_label(source, 0), "unused", "the Jacobian is None: the target "
                                          "does not depend on it", str(_learner_place(sys._getframe(1)) or "")))
            return result
        return jacobian

    _batch_jacobian = _jacobian

    def _before_gradient(self, tape, target, caller):
        """What must be seen before TensorFlow answers (a plain tape forgets what it watched)."""
        while caller is not None and "/autograph/" in caller.f_code.co_filename:  # autograph's converted_call
            caller = caller.f_back
        filename = caller.f_code.co_filename
        # TensorFlow asks tapes itself (jacobian loops over gradient): only the learner's calls, and Keras's
        # (model.fit's train_step), are the program's own. Under tf.function the learner's come through autograph.
        if "/tensorflow/python/" in filename and "/tensorflow/python/training/" not in filename:
            return None  # TensorFlow's own uses (jacobian, forward mode); its v1 optimizers' minimize is the program's
        record = self.recorder.tapes.get(id(tape))
        place = _learner_place(caller)
        if record is None:
            return None
        record.gradient_clocks.append(self.recorder.tick())
        self.recorder.gradient_targets.update(id(t) for t in _flat_tensors(target))
        watched_variables = tape.watched_variables() if tape._tape is not None else ()
        if target is None:  # TensorFlow raises a TypeError next; the finding says where the None came from
            self._add(Finding("the target", "no_target", "tape.gradient was asked for the gradient of None",
                              _no_target_line(caller, place)))
        frame = caller  # the learner's frame, past the checks' own wrappers: it names the sources
        while frame is not None and frame.f_code.co_filename in _TOOL_FILES:
            frame = frame.f_back
        if frame is not None and not (_learner_file(frame.f_code.co_filename)
                                      or "__autograph_generated_file" in frame.f_code.co_filename):
            frame = None
        return place, record, watched_variables, frame

    def _after_gradient(self, tape, target, sources, result, place, record, watched_variables, frame):
        import tensorflow as tf

        flat = tf.nest.flatten(sources)
        named = [(_first_name(frame, source), source) for source in flat]
        if isinstance(sources, (list, tuple)) and not sources and frame is not None:
            self._add(Finding("the list of sources", "wrong_variables", "it is empty: taken before the model "
                              "was built?", _list_taken_at(frame, sources, place) or str(place or "")))
        labelled = [(name or _source_label(source, index), source) for index, (name, source) in enumerate(named)]
        found = self.diagnose(tape, target, labelled, tf.nest.flatten(result), place=place, record=record,
                              watched_variables=watched_variables, frame=frame)
        taken = _list_taken_at(frame, sources, place) if isinstance(sources, (list, tuple)) and sources else ""
        if taken and taken != str(place):  # `params = model.variables` a few lines up: that is the line to change
            for finding in found:
                if finding.cause == "wrong_variables" and finding in self.findings:
                    self.findings[self.findings.index(finding)] = finding._replace(
                        where=f"{taken} (the list), asked at {place}")
        for name, source in named:
            if name and _is_variable(source):
                self._were_variables.add(name)
        record.asked.update(id(_raw_variable(source)) for source in flat if _is_variable(source))

    # -- the reasons
    def diagnose(self, tape, target, labelled, results=None, place=None, record=None, watched_variables=None,
                 frame=None):
        """Findings for each (label, source) whose gradient of target (results, or asked here) is None or NaN."""
        recorder = self.recorder
        with _paused(recorder):
            return self._diagnose(recorder, tape, target, labelled, results, place, record, watched_variables, frame)

    def _diagnose(self, recorder, tape, target, labelled, results, place, record, watched_variables, frame):
        record = record or recorder.tapes.get(id(tape))
        if watched_variables is None:
            watched_variables = tape.watched_variables()
        if results is None:
            results = [self._saved_gradient(tape, target, source) for _, source in labelled]
        found = []
        self.asked += len(labelled)
        walk = Walk(recorder)
        walk.program_arrays = _program_arrays(frame) + getattr(self, "compute_arrays", [])
        walk.evaluate = self._run_pruned
        sources = [source for _, source in labelled]
        for (label, source), grad in zip(labelled, results):
            finding = None
            if grad is not None and not _has_value(getattr(grad, "values", grad)) and hasattr(target, "graph"):
                # traced in a tf.function: its values come when the function runs (_check_function_call)
                self._symbolic.append((getattr(grad, "values", grad), label, source, target, place))
                continue
            try:
                if grad is None:
                    finding = self._why_none(walk, record, tape, target, source, label, watched_variables, sources,
                                             place, frame)
                elif not _finite_gradient(grad):
                    finding = walk.why_nan(label, source, target, self._adjoints(target)) or Finding(
                        label, "nan_at_zero", "the gradient has NaN or inf entries; the doctor found no operation "
                        "that overflowed or is singular on the recorded path", str(place or ""))
            except Exception as error:  # noqa: BLE001 (the doctor's own failure must still say the gradient is bad)
                finding = Finding(label, "not_differentiable" if grad is None else "nan_at_zero",
                                  f"the gradient is {'None' if grad is None else 'NaN or inf'}; the doctor could not "
                                  f"follow the computation ({type(error).__name__}: {str(error)[:80]})",
                                  str(place or ""))
            if finding is not None:
                found.append(finding)
        if any(finding.cause == "inner_gradient_outside" for finding in found):
            # the outer block closed too early: what else ran after it is the same mistake
            found = [Finding(f.source, "inner_gradient_outside", f.detail + " (the computation after the inner "
                             "gradient ran after the block too)", f.where) if f.cause == "outside_tape" else f
                     for f in found]
        stale = [finding for finding in found if finding.cause == ALREADY_NAN]
        found = [finding for finding in found if finding.cause != ALREADY_NAN]
        if not any(finding.cause.startswith("nan_") for finding in self.findings + found):
            self.already_nan += [finding for finding in stale if finding.source not in
                                 {earlier.source for earlier in self.already_nan}]
        # a loop asks the same gradient again: the first answer saw the most of the program (the record
        # keeps the last two tape blocks), so a later one for the same source at the same call is left out
        found = [finding for finding in found if self._said_at.setdefault((finding.source, str(place)), finding)
                 is finding]
        for finding in found:
            self._add(finding)
        return found

    def _check_function_call(self, graph, arguments):
        """Before a tf.function runs (its first three runs): the gradients its trace asked for, computed from
        the same arguments; a NaN among them is located in the graph's values like an eager one."""
        checked = self._calls_checked.get(id(graph), 0)
        if not (self._symbolic or self._checked) or checked >= 3:  # the first runs of a graph; a whole training loop would run twice
            return
        self._calls_checked[id(graph)] = checked + 1
        names = {op.name for op in graph.get_operations()}
        asked = [entry for entry in self._symbolic + self._checked if entry[0].op.name in names
                 and entry[3].op.name in names]
        self._checked = _without(self._checked, asked)
        self._symbolic = _without(self._symbolic, asked) + asked
        if not asked:
            return
        if any("Iterator" in op.type for op in graph.get_operations()):
            return  # a run would take the next batch from the learner's dataset: left to _after_function
        count = len(graph.inputs) - len(graph.captures)
        grads = [graph.get_tensor_by_name(entry[0].name) for entry in asked]
        values = self._run_pruned(graph, grads, arguments[:count])
        bad = [entry for entry, value in zip(asked, values) if not _finite_gradient(value)]
        finite = _without(asked, bad)
        self._symbolic = _without(self._symbolic, finite)  # checked on a run: finite
        self._checked += finite
        if not bad:
            return
        tensors = [t for op in graph.get_operations() for t in op.outputs if t.dtype.is_floating]
        computed = dict(zip([id(t) for t in tensors], self._run_pruned(graph, tensors, arguments[:count])))
        if any(op.type == "ReadVariableOp" and not all(_finite(computed[id(t)]) for t in op.outputs if id(t) in computed)
               for op in graph.get_operations()):
            # a Variable already holds inf or NaN (this run's own update, seen after it): its values say nothing
            self._nan_seen_from_outside(bad, "the gradient computed inside a tf.function has inf or NaN entries, "
                                        "and a Variable it reads already holds some")
            return
        walk = Walk(_valued_recorder(graph, computed, arguments[:count]))
        walk.evaluate = self._run_pruned
        for gradient, label, source, target, place in bad:
            inner_target = graph.get_tensor_by_name(target.name)
            value_of_target = computed.get(id(inner_target))
            finding = walk.why_nan(label, _inside(graph, source, walk.recorder._graph_values), value_of_target) \
                if value_of_target is not None else None
            if finding is not None and finding.cause == ALREADY_NAN:
                if not any(earlier.cause.startswith("nan_") for earlier in self.findings):
                    self.already_nan.append(finding)
                continue
            self._add(finding or Finding(label, "nan_at_zero", "the gradient the tf.function computed has NaN or "
                                         "inf entries", str(place or "")))
        self._symbolic = _without(self._symbolic, bad)  # said once

    def _before_function(self, function, args, kwargs):
        """A tf.function traced before the block runs its graph without asking its tapes again: when that graph
        takes gradients, trace its Python code once more (no run) so its tapes are seen, and check the
        gradients on the values it is about to run with."""
        import tensorflow as tf

        if id(function) in self._retraced or not function.experimental_get_tracing_count():
            return
        with _paused(self.recorder):
            graph = function.get_concrete_function(*args, **kwargs).graph  # the cached trace: nothing runs
        if _takes_gradients(graph):
            self._retraced.add(id(function))
            self._retrace(function, args, kwargs, check=True)

    def _retrace(self, function, args, kwargs, check):
        import tensorflow as tf

        scratch = tf.function(function.python_function, autograph=getattr(function, "_autograph", True))
        concrete = scratch.get_concrete_function(*args, **kwargs)
        arguments = [value for value in tf.nest.flatten((args, kwargs), expand_composites=True)
                     if tf.is_tensor(value) and not _is_variable(value)]
        if check and len(arguments) == len(concrete.graph.inputs) - len(concrete.graph.captures):
            with _paused(self.recorder):
                self._check_function_call(concrete.graph, arguments)

    def _after_function(self, function, args, kwargs, traced, result):
        """A tf.function ran: a NaN in its result (model.fit's step returns an Optional) that no check located is
        named from the graph; a None in it from a function whose tapes were not seen has them traced again."""
        import tensorflow as tf

        with _paused(self.recorder):
            flat = tf.nest.flatten(_optionals_opened(result), expand_composites=True)
        if self._symbolic and any(_has_value(value) and not _finite(value) for value in flat if tf.is_tensor(value)):
            self._nan_seen_from_outside()
        if traced:  # its tapes were seen as it was traced in the block
            self._retraced.add(id(function))
        if id(function) not in self._retraced and any(value is None for value in tf.nest.flatten(result)):
            self._retraced.add(id(function))
            self._retrace(function, args, kwargs, check=False)

    def _nan_seen_from_outside(self, entries=None, seen="a tf.function whose tape asked for this gradient (model.fit's "
                               "train step, say) returned inf or NaN"):
        """The gradients a tf.function's trace asked for could not be computed again here on the values it ran
        with: name the operation on their path that can make inf or NaN."""
        for gradient, label, source, target, place in list(self._symbolic if entries is None else entries):
            walk = Walk(_valued_recorder(target.graph, {}, []))
            path = walk.path(source, target)
            kinds = (("nan_overflow", {"Exp", "Expm1", "Cosh", "Sinh", "Pow"}),  # (softplus is computed stably)
                     ("nan_at_zero", {"Sqrt", "Rsqrt", "Log", "Log1p", "Reciprocal", "RealDiv", "Xlogy",
                                      "EuclideanNorm", "Atanh", "Acos", "Asin"}))
            found = None
            selects = [step for step in path if step.type in ("Select", "SelectV2")]
            risky = {name for _, types in kinds for name in types}
            if selects:  # the operation nearest to a tf.where's branch: the unsafe branch's own
                branches = set()
                for select in selects:
                    for branch in select.inputs[1:]:
                        branches |= walk.ancestors(branch)[0]
                feeding = [step for step in path if step in branches and step.type in risky]
                if feeding:
                    step = max(feeding, key=lambda step: step.clock)
                    found = Finding(label, "nan_unsafe_where", f"{seen}; {step.type} in a branch of a tf.where on "
                                    "the gradient's path can make them (the doctor could not run the graph again "
                                    "on the values it had)", _where_of(step))
            # the learner's own functions first (a loss given to compile, a layer's call), then the library's
            inside = [step for step in path if len(getattr(step.place, "outer", ())) > 1]
            ordered = inside + [step for step in path if step not in inside]
            divisions = {"RealDiv", "Reciprocal"}  # most divide by a count or a norm kept away from 0: last
            for step in [s for s in ordered if s.type not in divisions] + [s for s in ordered if s.type in divisions]:
                for cause, types in kinds:
                    if step.type in types and found is None:
                        unsafe = any(other.type in ("Select", "SelectV2") and other.clock > step.clock for other in path)
                        found = Finding(label, "nan_unsafe_where" if unsafe else cause, f"{seen}; {step.type} on the "
                                        "gradient's path can make them (the doctor could not run the graph again "
                                        "on the values it had)", _where_of(step))
            self._add(found or Finding(label, "nan_at_zero", f"{seen} (the doctor could not run the graph again "
                                       "on the values it had to see where)", str(place or "")))
            self._symbolic = [entry for entry in self._symbolic if entry[0] is not gradient]

    def _run_pruned(self, graph, fetches, arguments):
        from tensorflow.python.eager import wrap_function

        key = (id(graph), tuple(id(t) for t in fetches))
        if key not in self._pruned:
            count = len(arguments)
            wrapped = wrap_function.WrappedFunction(graph, variable_holder=wrap_function.VariableHolder(
                share_variables=True))
            self._pruned[key] = wrapped.prune(feeds=list(graph.inputs[:count]), fetches=list(fetches))
        return self._pruned[key](*arguments)

    def _saved_gradient(self, tape, target, source):
        return dict(self._saved)["gradient"](tape, target, _raw_variable(source) if _is_variable(source) else source)

    def _adjoints(self, target):
        if self._observer is None:
            return None

        def adjoints(tensors):
            with self._observer.stop_recording():  # asked inside its own block: not recorded, no warning
                return dict(self._saved)["gradient"](self._observer, target, tensors)
        return adjoints

    def _add(self, finding):
        key = (finding.source, finding.cause, finding.where)
        if key not in self._said:
            self._said.add(key)
            self.findings.append(finding)

    def _why_none(self, walk, record, tape, target, source, label, watched_variables, sources, place, frame):
        import tensorflow as tf

        here = str(place or "")
        if target is None:
            return None  # said before the call
        if _is_integer(target):
            return Finding("the target", "integer_dtype", f"the target's dtype is {_dtype_text(target)}",
                           self._made_at(walk, target) or here)
        if not (tf.is_tensor(source) or _is_variable(source)):
            return Finding(label, "not_watched", f"a {type(source).__name__}, not a tensor: a tape watches "
                           "tensors and Variables only (tf.convert_to_tensor it first)", here)
        if _is_integer(source):
            return Finding(label, "integer_dtype", f"its dtype is {_dtype_text(source)}",
                           (_definition_line(frame, source) if _is_variable(source) else self._made_at(walk, source))
                           or self._watched_at(record, source) or here)
        if _is_variable(source):
            return self._why_none_variable(walk, record, tape, target, source, label, watched_variables, sources,
                                           here, frame)
        return self._why_none_tensor(walk, record, target, source, label, watched_variables, here, frame, place)

    def _why_none_variable(self, walk, record, tape, target, source, label, watched_variables, sources, here,
                           frame):
        raw = _raw_variable(source)
        watched = any(raw is variable for variable in watched_variables)
        reaches = bool(walk.path(source, target))
        if not watched and not raw.trainable:
            mixed = any(_is_variable(s) and _raw_variable(s).trainable for s in sources)
            if mixed and (_keras_own(source) or not reaches):
                return Finding(label, "wrong_variables", "a non-trainable variable the target does not use: the "
                               "list has the model's non-trainable variables too (model.variables?)", here)
            return Finding(label, "not_trainable", "trainable=False, and the tape did not watch it",
                           _definition_line(frame, source) or here)
        if not watched and not tape._watch_accessed_variables:
            return Finding(label, "not_watched", "the tape has watch_accessed_variables=False, and it was not "
                           "watched", str(record.place or here) if record else here)
        # gradient_doctor's own tape watches what compute reads; its sources are chosen to be looked at, not trained
        unasked = [] if record.library is None else self._unasked(walk, record, target, sources, watched_variables)
        finding = walk.why_none(label, source, target, record, unasked, here)
        if finding is not None:
            return finding
        return Finding(label, "not_differentiable", "no gradient flows back along the recorded operations", here)

    def _unasked(self, walk, record, target, sources, watched_variables):
        """Names of trainable variables the tape recorded on the way to the target that were not asked for."""
        asked = {id(_raw_variable(s)) for s in sources if _is_variable(s)} | record.asked
        names = []
        for variable in watched_variables:
            if id(variable) in asked or not variable.trainable:
                continue
            if any(id(record.tape) in step.recording for step in walk.path(variable, target)):
                names.append(_source_label(variable, 0))
        return names

    def _why_none_tensor(self, walk, record, target, source, label, watched_variables, here, frame, place=None):
        _, from_target = walk.descendants(walk.target_ids(target))
        if id(source) in from_target:
            return Finding(label, "swapped", "this source was computed from the target", here)
        if id(source) not in walk.tracked(record, watched_variables):
            names_now = set(_names_of(frame, source)) if frame is not None else set()
            for item, names, watch_place, _ in (record.watched if record else ()):
                if names_now & set(names) and item is not source:
                    name = sorted(names_now & set(names))[0]
                    line = _rebinding_line(watch_place, name, here)
                    where = f"{watch_place}, then {line}" if watch_place and line else str(watch_place or line)
                    return Finding(label, "watched_other_object", f"the tape watched the object `{name}` held when "
                                   f"it was watched; then `{name}` was bound to a new tensor", where)
            twin = self._twin(walk, source, target, record)
            if twin is not None:
                return Finding(label, "watched_other_object", "the target was computed from another object with "
                               "the same values as this source (the NumPy array, or a copy)", twin)
            if names_now & self._were_variables:
                name = sorted(names_now & self._were_variables)[0]
                return Finding(label, "variable_replaced", f"`{name}` was a Variable at an earlier gradient call "
                               "and is now a Tensor", _rebinding_line(place, name, here) or here)
            handles = _variables_read_before(walk, source)
            # a Variable the program no longer holds by any name: `W = tf.Variable(...) * 0.01`, `w = w - lr * g`,
            # `self.scale = tf.maximum(self.scale - lr * g, 1e-3)`
            read_right_before = bool(handles) and not any(_variable_named(frame, handle) for handle in handles)
            if read_right_before and _maker_place(walk, source):
                return Finding(label, "variable_replaced", "a Tensor computed from a Variable (w = w - lr * g, or "
                               "tf.Variable(...) * 0.01), which the tape does not watch", _maker_place(walk, source))
            first_use = self._first_use(walk, source, target)
            made = _held_by_an_object(frame, source) and self._made_at(walk, source)
            if made:  # self.w = tf.random.normal(...): a weight made as a plain tensor
                return Finding(label, "not_watched", "a weight made as a plain tensor, which no tape watches by "
                               "itself (make it with add_weight or tf.Variable)", made)
            detail = "a tensor that is not a Variable, and the tape never watched it" + (
                f" (first used at {first_use})" if first_use else "")
            if record.place and here and str(record.place) != here:  # watch it in this block; asked for here
                return Finding(label, "not_watched", detail, f"{record.place}; asked at {here}")
            return Finding(label, "not_watched", detail, str(record.place or first_use or here))
        watch_clocks = [clock for item, _, _, clock in record.watched if item is source]
        if watch_clocks:
            up, _ = walk.ancestors(target)
            early = sorted((step for step in walk.consumers.get(id(source), ()) if step in up
                            and record.entered < step.clock < watch_clocks[0]), key=lambda step: step.clock)
            if early:
                used = early[0].place.nearest(record.function) if early[0].place is not None else None
                watch = next((where for item, _, where, _ in record.watched if item is source and where), None)
                return Finding(label, "watched_too_late", f"it is used at {early[0].place}, before it is watched",
                               f"{watch}, after its use at {used}" if watch and used else str(used or ""))
        down, _ = walk.descendants(walk.start_ids(source))
        if not down:
            whole = self._fed_the_whole(walk, source, target)
            if whole:
                return Finding(label, "watched_other_object", "the tape watched a part or a copy of a tensor, but the "
                               "computation was fed the tensor it came from", whole)
            twin = self._twin(walk, source, target, record)
            if twin is not None:
                return Finding(label, "watched_other_object", "the target was computed from another object with "
                               "the same values as this watched one (the NumPy array, or a copy)", twin)
        finding = walk.why_none(label, source, target, record, [], here)
        if finding is not None:
            return finding
        return Finding(label, "not_differentiable", "no gradient flows back along the recorded operations", here)

    def _twin(self, walk, source, target, record):
        """The place where the target's computation used an object equal to the source but not the source."""
        if not _has_value(source):
            return None
        up, _ = walk.ancestors(target)
        for step in sorted(up, key=lambda s: s.clock):
            if record is not None and step.clock < record.entered:
                continue  # before the block: a constant the program computed (a style target), not the feed
            for tensor in step.inputs:
                made = self.recorder.made.get(id(tensor))
                if tensor is source or not (made and made[2]):  # only tensors made from NumPy arrays
                    continue
                if _same_values(tensor, source):
                    return str(step.place or "")
        return None

    def _fed_the_whole(self, walk, source, target):
        """Where the target's computation used the tensor the watched source was sliced or copied from."""
        maker = walk.producer.get(id(source))
        if maker is None:
            return ""
        origins = {id(t) for t in maker.inputs if getattr(t, "dtype", None) is not None and t.dtype.is_floating}
        up, _ = walk.ancestors(target)
        uses = sorted((step for step in up if any(id(t) in origins for t in step.inputs)), key=lambda s: s.clock)
        return str(uses[0].place) if uses and uses[0].place else ""

    def _first_use(self, walk, source, target):
        up, _ = walk.ancestors(target)
        uses = sorted((step for step in walk.consumers.get(id(source), ()) if step in up), key=lambda s: s.clock)
        return str(uses[0].place) if uses and uses[0].place else ""

    def _made_at(self, walk, tensor):
        step = walk.producer.get(id(tensor))
        if step is not None and step.place:
            return str(step.place)
        made = self.recorder.made.get(id(tensor))
        return str(made[1]) if made and made[1] else ""

    def _watched_at(self, record, source):
        for item, _, place, _ in (record.watched if record else ()):
            if item is source and place:
                return str(place)
        return ""

    def _from_error(self, error, trace):
        """A block that raised before any gradient: a tensor of a tf.function's graph taken out of TensorFlow."""
        message = f"{type(error).__name__}: {error}"
        if not re.search(r"numpy|symbolic|SymbolicTensor|Cannot convert|float\(\) argument", message):
            return
        where = ""
        for summary in reversed(traceback.extract_tb(trace)):
            if _learner_file(summary.filename):
                where = _code_line(summary.filename, summary.lineno)
                break
        self._add(Finding("the target", "left_tensorflow", "under tf.function a tensor has no value yet: "
                          + message.splitlines()[0][:160], where))


class _never_fails:
    """Bookkeeping that goes wrong must never change what the learner's code does: its error is dropped."""

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return exc[0] is not None and issubclass(exc[0], Exception)


class _paused:
    """The doctor's own operations are not the program's: the recorder skips them."""

    def __init__(self, recorder):
        self.recorder = recorder

    def __enter__(self):
        self.recorder.paused += 1

    def __exit__(self, *exc):
        self.recorder.paused -= 1
        return False


def _takes_gradients(graph, depth=0):
    """Whether a tf.function's graph (or a function it calls) holds a tape's gradient operations."""
    if any(op.name.startswith("gradient_tape/") or "/gradient_tape/" in op.name for op in graph.get_operations()):
        return True
    for inner in getattr(graph, "_functions", {}).values():
        inner_graph = getattr(inner, "graph", None)
        if inner_graph is not None and depth < 3 and _takes_gradients(inner_graph, depth + 1):
            return True
    return False


def _keras_own(variable):
    """A Keras layer's variable (a moving mean, a seed state): Keras Variables have a path."""
    return isinstance(getattr(variable, "path", None), str)


def _flat_tensors(structure):
    try:
        import tensorflow as tf

        return [t for t in tf.nest.flatten(structure) if tf.is_tensor(t)]
    except Exception:  # noqa: BLE001
        return []


def _optionals_opened(result):
    """The result with each tf.experimental.Optional replaced by its value (model.fit's steps return one)."""
    import tensorflow as tf

    def opened(value):
        if isinstance(value, tf.experimental.Optional) and bool(value.has_value()):
            return value.get_value()
        return value
    return tf.nest.map_structure(opened, result)


def _inside(graph, source, values):
    """What stands for a source in one run of a graph: a Variable itself (its reads start from its handle),
    or the value its placeholder was fed."""
    if _is_variable(source):
        return source
    try:
        return values.get(id(graph.get_tensor_by_name(source.name)), source)
    except (KeyError, ValueError, AttributeError):
        return source


def _variable_named(frame, handle):
    """True when a learner's frame (or an object it holds) keeps the Variable whose handle this is."""
    while frame is not None:
        if _learner_file(frame.f_code.co_filename):
            for value in list(frame.f_locals.values()) + list(frame.f_globals.values()):
                for item in [value] + (list(vars(value).values()) if hasattr(value, "__dict__")
                                       and not isinstance(value, type) else []):
                    if _is_variable(item) and _raw_variable(item).handle is handle:
                        return True
        frame = frame.f_back
    return False


def _held_by_an_object(frame, value):
    """True when an object the learner's frame holds (self, a layer) keeps the value as an attribute."""
    if frame is None:
        return False
    for owner in list(frame.f_locals.values()) + list(frame.f_globals.values()):
        if hasattr(owner, "__dict__") and not isinstance(owner, type) and any(
                item is value for item in list(vars(owner).values())):
            return True
    return False


def _variables_read_before(walk, tensor, steps=4):
    """The handles of the Variables read within a few operations before the one that made `tensor`."""
    handles, tensors = [], [tensor]
    for _ in range(steps):
        makers = [walk.producer.get(id(t)) for t in tensors]
        makers = [maker for maker in makers if maker is not None]
        handles += [maker.inputs[0] for maker in makers if maker.type == "ReadVariableOp"]
        tensors = [t for maker in makers if maker.type != "ReadVariableOp" for t in maker.inputs]
    return handles


def _maker_place(walk, tensor):
    step = walk.producer.get(id(tensor))
    return str(step.place) if step is not None and step.place else ""


def _without(entries, dropped):
    """The entries not among `dropped`, by identity (their tensors cannot be compared with ==)."""
    return [entry for entry in entries if not any(entry is other for other in dropped)]


def _first_name(frame, value):
    if frame is None:
        return None
    names = _names_of(frame, value)
    return names[0] if names else None


def _same_values(a, b):
    try:
        x, y = np.asarray(a), np.asarray(b)
        return x.shape == y.shape and x.size > 0 and np.allclose(x, y)
    except (TypeError, ValueError, NotImplementedError):
        return False


def _rebinding_line(after, name, fallback):
    """The first line after a place (a watch, a gradient call), then from the top, that binds `name` anew."""
    if not after:
        return ""
    filename, start = after[0], after[1] + 1
    pattern = re.compile(rf"^\s*(?:[\w, ]*,\s*)?{re.escape(name)}\s*(?:,[\w, ]*)?=[^=]")
    lines = linecache.getlines(filename)
    for number in list(range(start, len(lines) + 1)) + list(range(1, start)):
        if pattern.match(lines[number - 1]) and "Variable(" not in lines[number - 1]:
            return _code_line(filename, number)
    return ""


def _definition_line(frame, variable):
    """The line that created a Variable the learner's frame holds by name (`v = tf.Variable(...)`)."""
    if frame is None:
        return ""
    names = _names_of(frame, variable)
    for owner_name, owner in list(frame.f_locals.items()):  # self.temperature
        for attribute, value in list(getattr(owner, "__dict__", {}).items()):
            if value is variable:
                names.append(attribute)
    filename = frame.f_code.co_filename
    for number, line in enumerate(linecache.getlines(filename), start=1):
        if "Variable(" in line or "add_weight(" in line:
            if any(re.search(rf"\b{re.escape(name)}\s*=", line) for name in names):
                return _code_line(filename, number)
    return ""


def _no_target_line(caller, place):
    """The last line of the learner's function whose result, None, became the target (a missing `return`)."""
    if place is None:
        return ""
    frame = caller
    while frame is not None and not _learner_file(frame.f_code.co_filename):
        frame = frame.f_back
    text = linecache.getline(place[0], place[1])
    match = re.search(r"gradient\(\s*([A-Za-z_][\w.]*)", text)
    if frame is None or match is None:
        return str(place)
    name = match.group(1)
    lines = linecache.getlines(place[0])
    for number in range(place[1] - 1, 0, -1):  # `loss = compute_loss(...)`, above the gradient call
        assigned = re.match(rf"\s*{re.escape(name)}\s*=\s*([A-Za-z_][\w.]*)\s*\(", lines[number - 1])
        if assigned:
            return _last_line_of(_resolve(frame, assigned.group(1))) or _code_line(place[0], number)
    return str(place)


def _last_line_of(function, depth=0):
    """The last line of a function's body; where it returns another function's result (`return nll(...)`),
    that function's last line: the None came from there."""
    try:
        source, first = inspect.getsourcelines(function)
        filename = inspect.getsourcefile(function)
    except (OSError, TypeError):
        return ""
    body = [(first + offset, line) for offset, line in enumerate(source) if line.strip()
            and not line.strip().startswith("#")]
    if not body:
        return ""
    number, text = body[-1]
    called = re.match(r"\s*return\s+([A-Za-z_][\w.]*)\s*\(", text)
    if called and depth < 5:
        scope = types.SimpleNamespace(f_globals=getattr(function, "__globals__", {}), f_locals={})
        inner = _resolve(scope, called.group(1))
        if inspect.isfunction(inner) or inspect.ismethod(inner):
            return _last_line_of(inner, depth + 1) or _code_line(filename, number)
    return _code_line(filename, number)


def _resolve(frame, dotted):
    """The object a dotted name (self.compute_loss, losses.mse) stands for in a frame, or None."""
    parts = dotted.split(".")
    scope = {**frame.f_globals, **frame.f_locals}
    value = scope.get(parts[0], getattr(__builtins__, parts[0], None) if not isinstance(__builtins__, dict) else None)
    for part in parts[1:]:
        value = getattr(value, part, None)
    return value


def _list_taken_at(frame, sources, place):
    """The line that bound the empty list of sources (`self.params = model.trainable_variables`)."""
    if frame is None or place is None:
        return ""
    names = _names_of(frame, sources)
    for owner in list(frame.f_locals.values()):
        for attribute, value in list(getattr(owner, "__dict__", {}).items()):
            if value is sources:
                names.append(attribute)
    lines = linecache.getlines(place[0])
    for name in names:  # the nearest binding above the gradient call, else the first in the file
        for number in list(range(min(place[1], len(lines)), 0, -1)) + list(range(1, len(lines) + 1)):
            if re.match(rf"\s*(self\.)?{re.escape(name)}\s*=[^=]", lines[number - 1]):
                return _code_line(place[0], number)
    return ""


def _program_arrays(frame):
    """The NumPy arrays the learner's program holds (its data: a batch, labels), as far as its frames show."""
    arrays = []
    while frame is not None:
        if _learner_file(frame.f_code.co_filename):
            for value in list(frame.f_globals.values()) + list(frame.f_locals.values()):
                if isinstance(value, np.ndarray) and value.dtype.kind == "f":
                    arrays.append(value)
        frame = frame.f_back
    return arrays


def _namespace_of(compute):
    """A stand-in for the learner's frame around a computation: its module's names and its closure's, its file."""
    names = dict(getattr(compute, "__globals__", {}))
    code = getattr(compute, "__code__", None)
    for name, cell in zip(getattr(code, "co_freevars", ()), getattr(compute, "__closure__", None) or ()):
        try:
            names[name] = cell.cell_contents
        except ValueError:  # an empty cell
            pass
    return types.SimpleNamespace(f_locals=names, f_globals=names, f_code=code) if code is not None else None


def _with_values(findings, named):
    """Each finding with the value of the source it names."""
    values = {name: value for name, (_, value) in named}
    return [(finding, (finding.source, values.get(finding.source))) for finding in findings]


def _bound_line(frame, value):
    """The line that bound a name the frame holds `value` by (`v0 = tf.constant(20)`)."""
    if frame is None:
        return ""
    filename = frame.f_code.co_filename
    for name in _names_of(frame, value):
        for number, line in enumerate(linecache.getlines(filename), start=1):
            if re.match(rf"\s*{re.escape(name)}\s*=[^=]", line):
                return _code_line(filename, number)
    return ""


def _arrays_seen_by(compute):
    """The data a computation handed to gradient_doctor reads (its module's and its closure's NumPy arrays and
    tensors): what the program held before the doctor started recording is not made on the way."""
    names = dict(getattr(compute, "__globals__", {}))
    for cell in getattr(compute, "__closure__", None) or ():
        try:
            names[id(cell)] = cell.cell_contents
        except ValueError:  # an empty cell
            pass
    return [value for value in names.values() if (isinstance(value, np.ndarray) and value.dtype.kind == "f")
            or type(value).__name__ == "EagerTensor"]


def _forget_between_cells():
    """In a notebook, what the doctor said belongs to the cell that ran: forget it when the next one starts."""
    try:
        shell = get_ipython()  # noqa: F821 (defined inside IPython)
    except NameError:
        return
    if shell is not None:  # None in plain Python (the grader's judge)
        shell.events.register("pre_run_cell", lambda *args: _RECENT.clear())


_forget_between_cells()
