"""`python -m autograder COMMAND`: the course's commands (the Makefile calls these)."""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

from . import course
from .grading.limits import Limits

# jsonschema, which reads every notebook for nbformat, compiles an Earley grammar for its optional
# IRI format check when imported: 2.6 s in this process and again in every grading worker (they
# import this module first). No notebook or nbgrader schema has an IRI field.
sys.modules.setdefault("rfc3987_syntax", None)


def _build(args) -> int:
    from .build import build, stale_files

    if args.check:
        stale = stale_files(args.root)
        for path in stale:
            print(f"out of date: {path.relative_to(args.root)}")
        if stale:
            print("Run `make build` and commit the result.")
        return 1 if stale else 0
    for path in build(args.root):
        print(f"wrote {path.relative_to(args.root)}")
    return 0


def _lint(args) -> int:
    from .lint import lint

    problems = lint(args.root, publish=args.publish)
    print("\n".join(problems) if problems else f"lint: {len(course.assignments(args.root))} notebooks, no problems")
    if not args.publish:
        for problem in course.repository_problems(args.root, published=True):
            if problem not in problems:
                print(f"warning (an error for `lint --publish`): {problem}")
    return 1 if problems else 0


def _grade(args) -> int:
    from .grading import grade_class, report

    print(f"course root: {args.root}")
    names = [a.name for a in course.assignments(args.root)]
    if args.assignment not in names:
        print(f"no assignment {args.assignment!r} in source/; the assignments are: {', '.join(names)}")
        return 2
    if not list((args.root / "submitted").glob(f"*/{args.assignment}")):
        print(f"no submissions: put them in {args.root / 'submitted'}/<student id>/{args.assignment}/{args.assignment}.ipynb"
              " (nbgrader collect or zip_collect does that)")
        return 2
    outcomes = grade_class(args.assignment, args.root, args.student or None, Path(args.csv) if args.csv else None,
                           sandboxed=not args.unsandboxed, workers=args.workers, scheduler=args.scheduler,
                           time_budget=args.time_budget)
    print(report(args.assignment, outcomes))
    print(f"grades: {args.csv or 'grades.csv'}; feedback: feedback/<student>/{args.assignment}/")
    return 0 if all(o.graded for o in outcomes) else 1


def _demo(args) -> int:
    from .grading import demo

    return demo.main(args.root, (args.folder or args.root / "demo").resolve())


def _bench(args) -> int:
    from .bench import main

    return main(args.notebooks, args.root)


def _bench_grading(args) -> int:
    from .bench import grading_main

    return grading_main(args.root, args.assignment, args.students, args.keep.resolve() if args.keep else None)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m autograder", description=__doc__)
    parser.add_argument("--root", type=lambda path: Path(path).resolve(),
                        help="the course root (default: the current folder, which holds nbgrader_config.py, as for nbgrader)")
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="regenerate setup cells, release/, notebooks/ and the README map")
    build.add_argument("--check", action="store_true", help="change nothing; fail if a generated file is out of date")
    build.set_defaults(run=_build)
    lint = commands.add_parser("lint", help="check grade ids, points, markers, setup cells and badges")
    lint.add_argument("--publish", action="store_true",
                      help="also fail when the Colab links point at the placeholder repository (before making the course public)")
    lint.set_defaults(run=_lint)
    grade = commands.add_parser("grade", help="autograde every submission of an assignment, then feedback and CSV")
    grade.add_argument("assignment", help="e.g. 01_first_gradient")
    grade.add_argument("--student", action="append", help="grade only this student (repeatable)")
    grade.add_argument("--csv", help="where to write the grades (default grades.csv)")
    grade.add_argument("--unsandboxed", action="store_true",
                       help="run student code with your own rights, without bubblewrap (only for code you trust)")
    grade.add_argument("--workers", type=int, help="submissions graded at once (default: one per core)")
    grade.add_argument("--scheduler", help="a Dask scheduler's address (tcp://host:8786): grade on its workers")
    grade.add_argument("--time-budget", type=int, metavar="SECONDS",
                       help=f"wall-clock seconds one submission may take, start to end (default {Limits().wall_seconds})")
    grade.set_defaults(run=_grade)
    demo = commands.add_parser("demo", help="build a demo class for two notebooks and grade it: table, feedback, CSV, class reports")
    demo.add_argument("--folder", type=Path, help="where the demo course goes (default: demo/ in the course root)")
    demo.set_defaults(run=_demo)
    bench = commands.add_parser("bench", help="time TensorFlow's import and each notebook top to bottom")
    bench.add_argument("notebooks", nargs="*", help="assignment names (default: all)")
    bench.set_defaults(run=_bench)
    bench_grading = commands.add_parser(
        "bench-grading", help="grade one class with stock nbgrader and with `grade`: both times, the ratio, identical scores")
    bench_grading.add_argument("--assignment", default="01_first_gradient")
    bench_grading.add_argument("--students", type=int, default=24, help="class size (default 24)")
    bench_grading.add_argument("--keep", type=Path, help="grade in this folder and keep it (default: a temporary one)")
    bench_grading.set_defaults(run=_bench_grading)
    args = parser.parse_args(argv)
    # nbgrader runs `alembic` from PATH when it opens a gradebook: this environment's must be found.
    scripts = str(Path(sys.executable).parent)
    if scripts not in os.environ.get("PATH", "").split(os.pathsep):
        os.environ["PATH"] = os.pathsep.join([scripts, os.environ.get("PATH", "")])
    try:
        args.root = args.root or course.find_root(Path.cwd())
        return args.run(args)
    except course.CourseError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
