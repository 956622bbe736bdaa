"""While nbgrader grades, an answer cannot pass by replacing the checks or NumPy's functions.

The setup cell, the answers and the tests share one namespace, so an answer could rebind
`check_close` or `np.allclose` and every test after it would pass. While grading, the course's
names and NumPy's functions are put back before every cell, and a cell during which any of them
was replaced (by an answer's function called from a test, say) writes so to stderr, which nbgrader
scores as 0.
"""
import os
import sys

import numpy as np


def guard_the_checks(shell, stderr):
    """Watch the names the setup cell defined and NumPy's functions from now on, in `shell` (IPython)."""
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

    def before_cell(info):
        if replaced():
            put_back()

    def after_cell(result):
        names = replaced()
        if names:
            # ipykernel tags each stream with the request it answers, and only sys.stdout (which
            # sys.stderr is now) is retagged for each cell: tag this one too, or its text goes nowhere.
            if hasattr(stderr, "set_parent") and getattr(sys.stdout, "parent_header", None):
                stderr.set_parent(sys.stdout.parent_header)
            stderr.write(f"This cell ran while code replaced {', '.join(names)}, which the checks rely on. "
                         "The originals are back, and a test cell in which this happens earns no points.\n")
            stderr.flush()  # now, while the cell's outputs are still being collected
            put_back()

    shell.events.register("pre_run_cell", before_cell)
    shell.events.register("post_run_cell", after_cell)


if os.environ.get("NBGRADER_EXECUTION"):
    try:
        from IPython import get_ipython
    except ImportError:
        get_ipython = lambda: None  # noqa: E731 (plain Python: no cells to guard)
    if get_ipython() is not None:
        guard_the_checks(get_ipython(), get_ipython().user_ns["KERNEL_STDERR"])
