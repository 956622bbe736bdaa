"""The code every notebook runs in its setup cell.

These modules are the one hand-edited home of that code: `make build` copies them, in the order
of SETUP_MODULES, into the locked setup cell of each notebook (relative imports dropped), so a
notebook needs nothing but TensorFlow, NumPy and Matplotlib. They import each other relatively
only, so they stay importable here for the tests.
"""

SETUP_MODULES = ("environment", "messages", "plots", "doctor_causes", "doctor_recorder", "doctor_graph", "doctor",
                 "observations", "checks", "guard")
