"""The generated setup cell carries the notebook-side modules and nothing of the package."""
import ast

from autograder import notebook_side
from autograder.setup_cell import setup_source


def test_setup_cell_has_every_module_in_order():
    text = setup_source()
    positions = [text.index(f"# ---- {name}.py") for name in notebook_side.SETUP_MODULES]
    assert positions == sorted(positions)
    assert text.startswith("#@title")


def test_setup_cell_does_not_import_the_package():
    tree = ast.parse(setup_source())
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and not (node.module or "").startswith("autograder"), ast.unparse(node)
        if isinstance(node, ast.Import):
            assert not any(alias.name.startswith("autograder") for alias in node.names)


def test_setup_cell_silences_tensorflow_before_importing_it():
    text = setup_source()
    assert text.index("TF_ENABLE_ONEDNN_OPTS") < text.index("import tensorflow")
    assert text.index("TF_CPP_MIN_LOG_LEVEL") < text.index("import tensorflow")


def test_setup_cell_defines_the_helpers():
    names = {node.name for node in ast.parse(setup_source()).body if isinstance(node, (ast.FunctionDef, ast.ClassDef))}
    assert {"check_gradient", "check_gradients", "check_close", "check_none", "plot_derivative", "plot_mismatch"} <= names
