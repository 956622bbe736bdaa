"""Quiet, seeded TensorFlow for every notebook of the course.

nbgrader gives 0 points to a test cell that writes anything to stderr, so TensorFlow's
log lines and Python warnings are switched off here, before TensorFlow is imported.
"""
import os

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
# oneDNN's start-up lines ignore TF_CPP_MIN_LOG_LEVEL in TensorFlow 2.21; this env var silences them.
os.environ.setdefault("TF_ENABLE_ONEDNN_OPTS", "0")

import logging
import sys
import warnings

# nbgrader scores a test cell 0 when anything in it writes to stderr, even a correct answer with a
# debug print(..., file=sys.stderr) or a logging.warning in it: show such lines as ordinary output.
KERNEL_STDERR = sys.stderr  # kept for the grading guard (guard.py), whose message must cost the points
sys.stderr = sys.stdout

# Any warning in a test cell would cost the student the cell's points; lessons that want to
# show a warning catch it with warnings.catch_warnings(record=True) and print it.
warnings.filterwarnings("ignore")
logging.getLogger("tensorflow").setLevel(logging.ERROR)

import numpy as np
import matplotlib

# When nbgrader runs the notebook (autograde, or the Validate button), nobody sees the lesson's
# figures: none is drawn, which roughly halves the time a submission takes to grade. A failing
# check still shows its figure (checks._show draws it itself).
GRADED = bool(os.environ.get("NBGRADER_EXECUTION"))
if GRADED:
    matplotlib.use("agg")

import matplotlib.pyplot as plt
import tensorflow as tf
import keras

if GRADED:
    try:
        from IPython import get_ipython
    except ImportError:
        get_ipython = lambda: None  # noqa: E731 (plain Python: no cells to close figures after)
    if get_ipython() is not None:
        get_ipython().events.register("post_run_cell", lambda *result: plt.close("all"))
        # Tracebacks as Python prints them: each frame's line, without IPython's quoted and
        # highlighted context, which costs up to a second per failing submission. Feedback keeps
        # only the last line (the check's message); Validate and formgrader still show every frame.
        get_ipython().InteractiveTB.set_mode(mode="Plain")

tf.get_logger().setLevel(logging.ERROR)
# Ampere and newer GPUs (Colab's A100 and L4) multiply float32 matrices in TensorFloat-32 by default, about
# 1e-3 relative error: the checks' float32 tolerance (1e-5) would fail correct answers there. Full float32.
tf.config.experimental.enable_tensor_float_32_execution(False)
keras.utils.set_random_seed(0)
np.set_printoptions(precision=4, suppress=True)
