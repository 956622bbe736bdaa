"""nbgrader's configuration for this course; the repository root is the course root."""
c = get_config()  # noqa: F821 (nbgrader provides get_config)

c.CourseDirectory.course_id = "gradient-tape"

# Student stubs. The self-study edition (notebooks/) is built with the same ClearSolutions settings.
c.ClearSolutions.code_stub = {"python": "# YOUR CODE HERE\nraise NotImplementedError()"}
c.ClearSolutions.text_stub = "YOUR ANSWER HERE"

# Importing TensorFlow takes 3-5 s on an idle core and far longer on a busy grading machine:
# a cell gets two minutes before it is interrupted.
c.Execute.timeout = 120
# Starting a kernel takes seconds on an idle machine and can pass nbclient's default minute on a loaded one.
c.Execute.startup_timeout = 180
# A loop stuck inside a tf.function ignores the kernel interrupt; without this the whole
# submission is dropped instead of graded with the cells that did run.
c.Execute.raise_on_iopub_timeout = False

# nbgrader scores a test cell 0 when it writes anything to stderr. The setup cell shows Python's
# stderr as ordinary output (a debug print or a logging.warning costs nothing); TensorFlow's C++ log
# lines, which a student's own imports can switch back on, are dropped here.
# (Only autograde applies this; `nbgrader validate` does not.)
c.IgnorePattern.enabled = True
c.IgnorePattern.pattern = (
    r"(^|\n)(WARNING: All log messages before absl::InitializeLog"
    r"|[IWE]\d{4} [\d:.]+ +\d+ [\w.]+:\d+\]"
    r"|\d{4}-\d\d-\d\d [\d:.]+: [IWE] tensorflow/"
    r"|To enable the following instructions: )"
)

# A student who deleted a test cell gets it back (and graded) instead of losing it silently.
c.OverwriteCells.add_missing_cells = True

c.LimitOutput.max_lines = 200

# Feedback is the autograded notebook as HTML: without ClearHiddenTests and ShortenTracebacks it
# would show students the source of the hidden tests (in the cells, and quoted in the tracebacks of
# failing ones); RemoveHiddenEchoes replaces the outputs that show them (an answer can print the
# cells that ran), before ClearHiddenTests while the hidden lines are there to look for; NoteReaches
# opens it with the answer lines that reach for the grading machinery; FoldSetupCell shows the setup
# cell's first lines only.
c.GenerateFeedback.preprocessors = [
    "nbgrader.preprocessors.GetGrades",
    "autograder.feedback.RemoveHiddenEchoes",
    "nbgrader.preprocessors.ClearHiddenTests",
    "autograder.feedback.NoteReaches",
    "autograder.feedback.ShortenTracebacks",
    "autograder.feedback.FoldSetupCell",
    "nbconvert.preprocessors.CSSHTMLHeaderPreprocessor",
]
# nbconvert's HTML exporter, less its second pass over each page (half of feedback's time).
c.GenerateFeedback.exporter_class = "autograder.feedback.FeedbackExporter"
