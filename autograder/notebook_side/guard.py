"""While nbgrader grades, an answer cannot pass by replacing the checks or NumPy's functions.

The setup cell, the answers and the tests share one namespace, so an answer could rebind
`check_close` or `np.allclose` and every test after it would pass. While grading, the course's
names and NumPy's functions are put back before every cell, and a cell during which any of them
was replaced (by an answer's function called from a test, say) writes so to stderr, which nbgrader
scores as 0.

IPython's cell events run this, and an answer could unregister them. The guard's callbacks stay
in lists that keep them through clear(), remove() and the like; and an audit hook (which Python
lets nobody remove) checks again whenever a cell's code starts: it puts the events and the names
back, and a cell that starts with the events gone says so on stderr. Code in the kernel can still
reach code in the kernel: the grader also reads the answers for such code before they run.
"""
import os
import sys

import numpy as np


def _keeping(base, methods):
    """Those methods of `base`, each followed by self._keep(): what they removed of the guard comes back."""
    def after(name):
        def method(self, *args, **kwargs):
            result = getattr(base, name)(self, *args, **kwargs)
            self._keep()
            return result
        return method
    return {name: after(name) for name in methods}


class _Keeping(list):
    """A list of callbacks from which the guard's own cannot be removed by the list's methods."""

    def __init__(self, items, kept):
        super().__init__(items)
        self.kept = kept
        self._keep()

    def _keep(self):
        list.extend(self, [callback for callback in self.kept if callback not in list(self)])


class _KeepingCallbacks(dict):
    """IPython's {event: [callbacks]}, whose lists for the guard's events stay _Keeping ones."""

    def __init__(self, items, kept):
        super().__init__(items)
        self.kept = kept  # {event: the guard's callback}
        self._keep()

    def _keep(self):
        for event, callback in self.kept.items():
            found = dict.get(self, event, [])
            if not isinstance(found, _Keeping) or callback not in found.kept:
                dict.__setitem__(self, event, _Keeping(found, [callback]))


for _class, _methods in [(_Keeping, ("clear", "remove", "pop", "__delitem__", "__setitem__", "__imul__")),
                         (_KeepingCallbacks, ("clear", "pop", "popitem", "__delitem__", "__setitem__", "update", "setdefault"))]:
    for _name, _method in _keeping(_class.__base__, _methods).items():
        setattr(_class, _name, _method)


def guard_the_checks(shell, stderr):
    """Watch the names the setup cell defined and NumPy's functions from now on, in `shell` (IPython).

    Returns a function that turns the guard off (for tests: the audit hook itself stays)."""
    course_names = {name: value for name, value in shell.user_ns.items() if not name.startswith("_")}
    numpy_functions = {(module, name): value for module in (np, np.testing, np.linalg)
                       for name, value in vars(module).items() if callable(value) and not name.startswith("_")}

    def replaced():
        names = [name for name, value in course_names.items() if shell.user_ns.get(name) is not value]
        return names + [f"{module.__name__}.{name}" for (module, name), value in numpy_functions.items()
                        if getattr(module, name, None) is not value]

    def put_back():
        shell.user_ns.update(course_names)
        for (module, name), value in numpy_functions.items():
            setattr(module, name, value)

    def say(message):
        # ipykernel tags each stream with the request it answers, and only sys.stdout (which
        # sys.stderr is now) is retagged for each cell: tag this one too, or its text goes nowhere.
        if hasattr(stderr, "set_parent") and getattr(sys.stdout, "parent_header", None):
            stderr.set_parent(sys.stdout.parent_header)
        stderr.write(message)
        stderr.flush()  # now, while the cell's outputs are still being collected

    def before_cell(info):
        if replaced():
            put_back()

    def after_cell(result):
        names = replaced()
        if names:
            say(f"This cell ran while code replaced {', '.join(names)}, which the checks rely on. "
                "The originals are back, and a test cell in which this happens earns no points.\n")
            put_back()

    events = {"pre_run_cell": before_cell, "post_run_cell": after_cell}

    def register():
        """Our callbacks on the shell's events, with the events themselves made whole again if an answer broke them."""
        from IPython.core.events import EventManager, available_events

        if not isinstance(getattr(shell.events, "callbacks", None), dict):
            shell.events = EventManager(shell, available_events)
        callbacks = {event: list(dict.get(shell.events.callbacks, event, [])) for event in available_events}
        shell.events.callbacks = _KeepingCallbacks(callbacks, events)

    def unregistered():
        try:
            return [event for event, callback in events.items() if callback not in shell.events.callbacks[event]]
        except Exception:  # the events themselves were cleared or replaced
            return list(events)

    guarding = [True]

    def on_audit(event, args):
        # Runs for every audited action of the process: cheap, and never raising (that would stop the action).
        if event != "exec" or not guarding or getattr(args[0], "co_name", None) != "<module>":
            return
        try:
            missing = unregistered()
            if missing:
                register()
                put_back()
                say("Code removed the grading guard's cell events, which watch the checks; they are back, "
                    "and the names the checks rely on with them. A test cell in which this happens earns no points.\n")
            elif replaced():
                put_back()
        except Exception:
            pass

    register()
    sys.addaudithook(on_audit)
    return guarding.clear


if os.environ.get("NBGRADER_EXECUTION"):
    try:
        from IPython import get_ipython
    except ImportError:
        get_ipython = lambda: None  # noqa: E731 (plain Python: no cells to guard)
    if get_ipython() is not None:
        guard_the_checks(get_ipython(), get_ipython().user_ns["KERNEL_STDERR"])
